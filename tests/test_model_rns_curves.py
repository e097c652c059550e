"""The SBMM-friendly curves sbmm192/384/512 (issue 7 item 3): prime order, checked without PARI.

The constants come from tools/gen_sbmm_curves.py (PARI's SEA, a generation tool only). Here: P is the
model's seeded Ma^2 - 2, the curve is non-singular, G is on it, the order n is prime, n * G = O and
n^2 > 16 p, so n is the only multiple of ord(G) = n in the Hasse interval: #E = n exactly (cofactor 1).
b and G are reproduced from the seed by the script's own rule; that the earlier b values of the
sequence all have a composite #E needs point counting (the script's --check, with PARI).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import gmpy2
import pytest

from pka.cli import main
from pka.errors import PkaError, Status
from pka.model import rns

REPO = Path(__file__).resolve().parents[1]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_sbmm_curves", REPO / "tools/gen_sbmm_curves.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_sbmm_curves", mod)
    spec.loader.exec_module(mod)
    return mod


GEN = _load_tool()
SIZES = [(bits, w) for bits, w in GEN.SIZES]


def _counted(bits: int) -> rns.Curve:
    """The curve of SBMM_CURVES: a size missing from the table (an emptied or shortened table) fails."""
    assert bits in rns.SBMM_CURVES, f"sbmm{bits} missing from pka.model.rns.SBMM_CURVES (tools/gen_sbmm_curves.py)"
    return rns.CURVES[f"sbmm{bits}"]


def test_every_size_of_the_tool_is_in_the_table() -> None:
    assert SIZES and sorted(rns.SBMM_CURVES) == sorted(bits for bits, _ in SIZES) == [192, 384, 512]


@pytest.mark.parametrize(("bits", "w"), SIZES)
def test_table_covers_the_cli_curves(bits: int, w: int) -> None:
    assert set(rns.SBMM_CURVES) <= {192, 384, 512} and rns.CURVES[f"sbmm{bits}"].w == w
    c = _counted(bits)
    assert c.order_known and c.order == rns.SBMM_CURVES[bits].order


@pytest.mark.parametrize(("bits", "w"), SIZES)
def test_prime_is_the_seeded_ma2_minus_2(bits: int, w: int) -> None:
    c = _counted(bits)
    ctx = rns.gen_sbmm_prime(bits, w)
    assert c.p == ctx.p == rns.SBMM_CURVES[bits].p == ctx.ma ** 2 - 2
    assert c.p.bit_length() == bits and gmpy2.is_prime(c.p, 50)
    assert rns.sbmm_context(c.p, w).a == ctx.a


@pytest.mark.parametrize(("bits", "w"), SIZES)
def test_curve_nonsingular_and_generator_on_it(bits: int, w: int) -> None:
    c = _counted(bits)
    assert c.a == c.p - 3 and 0 < c.b < c.p
    assert (4 * c.a ** 3 + 27 * c.b ** 2) % c.p != 0
    assert 0 < c.gx < c.p and 0 < c.gy <= c.p // 2
    assert (c.gy ** 2 - (c.gx ** 3 + c.a * c.gx + c.b)) % c.p == 0
    rns.check_point(c.name, c.gx, c.gy)


@pytest.mark.parametrize(("bits", "w"), SIZES)
def test_order_prime_exact_and_the_group_order(bits: int, w: int) -> None:
    c = _counted(bits)
    n, p, g = c.order, c.p, (c.gx, c.gy)
    assert c.order_known and c.cofactor == 1 and n == rns.SBMM_CURVES[bits].order
    assert gmpy2.is_prime(n, 50)
    assert (p + 1 - c.cofactor * n) ** 2 <= 4 * p            # within the Hasse bound |p + 1 - #E| <= 2 sqrt(p)
    assert n * n > 16 * p                                     # 2n > p + 1 + 2 sqrt(p): no other multiple fits
    assert rns.affine_mul(c, n, g) is None                    # n * G = O, G != O, n prime: ord(G) = n
    assert rns.affine_mul(c, n - 1, g) == (c.gx, p - c.gy)   # (n - 1) G = -G
    assert rns.affine_mul(c, n + 1, g) == g


@pytest.mark.parametrize(("bits", "w"), SIZES)
def test_b_and_g_reproduced_from_the_seed(bits: int, w: int) -> None:
    _counted(bits)
    const = rns.SBMM_CURVES[bits]
    assert GEN.reproduce(const.p, bits, const.tries) == (const.b, const.gx, const.gy)


def test_scalar_range_is_the_exact_order() -> None:
    c = rns.CURVES["sbmm192"]
    for k in (0, c.order):
        with pytest.raises(PkaError) as exc:
            rns.check_scalar(c, k)
        assert exc.value.status == Status.ERR_OPERAND_RANGE
    rns.check_scalar(c, c.order - 1)


def test_cli_ecdh_sbmm192_at_the_top_of_the_range(capsys: pytest.CaptureFixture[str]) -> None:
    """One model ladder (about 3 s): k = n - 1 gives x(-Q) = x(Q); the ladder runs order.bit_length() steps."""
    import json

    c = rns.CURVES["sbmm192"]
    q = rns.affine_mul(c, 0xC0FFEE, (c.gx, c.gy))
    assert q is not None
    try:
        main(["ecdh", "--curve", "sbmm192", "--scalar", hex(c.order - 1), "--peer-x", hex(q[0]),
              "--peer-y", hex(q[1]), "--json"])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert int(data["x"], 16) == q[0] and data["detail"]["elen"] == c.order.bit_length()
    try:
        main(["ecc", "--curve", "sbmm192", "--scalar", hex(c.order)])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert code != 0 and "order" in err
