"""Scalar blinding k + r n against special-form group orders (pka.analysis.blinding; doc/security.md):
the statistic behind the ECC_MUL TVLA's two confirmed cycles. It shows the weakness (64-bit r leaves
bits of k biased for P-256's order and unmasked for P-384's) and that a wider r removes it, so the
check can fail either way."""

from __future__ import annotations

from pka.analysis.blinding import worst_bias
from pka.model import rns


def test_64_bit_blinding_leaves_p256_bits_190_191_biased() -> None:
    bias, bit = worst_bias(rns.CURVES["p256"].order, 64, keys=2, samples=2000)
    assert bias > 0.2 and bit in (190, 191), (bias, bit)


def test_96_bit_blinding_masks_p256() -> None:
    bias, bit = worst_bias(rns.CURVES["p256"].order, 96, keys=2, samples=2000)
    assert bias < 0.05, (bias, bit)


def test_64_bit_blinding_does_not_mask_the_top_of_p384() -> None:
    order = rns.CURVES["p384"].order
    bias, bit = worst_bias(order, 64, keys=1, samples=500)
    assert bias == 0.5 and 250 <= bit < 384 + 62, (bias, bit)
    assert worst_bias(order, 224, keys=1, samples=2000)[0] < 0.06


def test_each_curve_blinds_with_a_length_that_masks_its_order() -> None:
    """What the drivers pass (ARG[5:4], pka.model.rns.blind_bits): P-256 128 bits, P-384 256, each at
    least the analysis's minimum width for its order (in 32-bit steps) and no more than the hardware's
    ECC_BLIND_MAX; the worst bias at that width is small, 64 bits shorter it is not."""
    for name in ("p256", "p384"):
        order = rns.CURVES[name].order
        bits = rns.blind_bits(name)
        assert bits % 64 == 0 and 64 < bits <= rns.ECC_BLIND_MAX
        assert worst_bias(order, bits, keys=1, samples=2000)[0] < 0.05
        # the next shorter length the hardware offers leaves a bit biased (2,000 draws: noise ~0.035)
        assert worst_bias(order, bits - 64, keys=1, samples=2000)[0] > 0.06
