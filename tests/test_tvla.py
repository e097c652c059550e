"""Leakage assessment (pka.analysis.tvla, `pka tvla`): Welch's t against a hand computation (zero
variance counts as 0), the t tail, the engines' phases read from their RTL, and a small TVLA of
MODEXP_CT on hscm (128-bit prime modulus, 2 PEs, 2 x 30 traces) both ways: blinding off finds the
leak (|t| far above 4.5, confirmed in both independent halves of the traces); blinding on shows no
cycle over 4.5 in both halves. At 30 traces a set the single test's max |t| on the blinded side is
at the edge of chance (about one of the window's 30,000 varying samples exceeds 4.5 by chance:
`expected_over_4_5_if_no_leak`), so the "on" side asserts the repeated test, not max |t| < 4.5.
A non-constant-time operation (plain MODEXP) fails loudly. The full goals are bench/tvla.py's."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pka.analysis import tvla as T
from pka.errors import PkaError

SPEC_KEYS = {"traces", "samples", "window", "excluded", "max_abs_t", "cycles_over_4_5", "png"}


# ---- Welch's t ---------------------------------------------------------------------------------------

def test_welch_t_against_a_hand_computation() -> None:
    fixed = [[1, 2, 7, 4, 10], [3, 2, 7, 4, 10], [5, 2, 7, 4, 12]]
    rnd = [[2, 2, 7, 5, 10], [4, 2, 7, 5, 11], [9, 3, 7, 5, 12]]
    t = T.welch_t_of(fixed, rnd)
    # sample 0: means 3 and 5, variances 4 and 13: t = -2 / sqrt(4/3 + 13/3)
    assert t[0] == pytest.approx(-2 / math.sqrt(17 / 3))
    # sample 1: the fixed set constant (variance 0), the random one 2, 2, 3: t = (2 - 7/3) / sqrt(1/9) = -1
    assert t[1] == pytest.approx(-1.0)
    # samples 2 and 3: zero variance in both sets: t = 0 (3: at different values, counted as degenerate)
    assert t[2] == 0.0 and t[3] == 0.0
    # sample 4: means 32/3 and 11, variances 4/3 and 1
    assert t[4] == pytest.approx((32 / 3 - 11) / math.sqrt((4 / 3) / 3 + 1 / 3))
    a, b = T.Moments(5), T.Moments(5)
    for tr in fixed:
        a.add(tr)
    for tr in rnd:
        b.add(tr)
    assert T.degenerate(a, b) == 1
    # the moments of two halves merged equal those of the whole
    h0, h1 = T.Moments(5), T.Moments(5)
    h0.add(fixed[0])
    for tr in fixed[1:]:
        h1.add(tr)
    m = h0.merged(h1)
    assert m.n == 3 and list(m.mean) == pytest.approx(list(a.mean)) and list(m.m2) == pytest.approx(list(a.m2))
    with pytest.raises(T.AlignmentError):
        a.add([1, 2, 3])


def test_t_tail() -> None:
    # Student's t with 2 degrees of freedom: P(|T| > x) = 1 - x / sqrt(x^2 + 2)
    for x in (0.5, 2.0, 4.5):
        assert T.t_tail(x, 2) == pytest.approx(1 - x / math.sqrt(x * x + 2), rel=1e-6)
    assert T.t_tail(4.5, 1e6) == pytest.approx(math.erfc(4.5 / math.sqrt(2)))
    assert T.t_tail(4.5, 58) > T.t_tail(4.5, 1998) > T.t_tail(4.5, 1e6)


def test_engine_phases_from_the_rtl() -> None:
    ph = T.engine_phases("hscm")
    assert ph.register == "st_q" and ph.names[:3] == ("S_IDLE", "S_LOAD", "S_ALIGN")
    kinds = {n: ph.kind(i) for i, n in enumerate(ph.names)}
    assert kinds["S_LOAD"] == "load" and kinds["S_STORE"] == "store" and kinds["S_RUN"] == "compute"
    assert kinds["S_IDLE"] == kinds["S_DONE"] == kinds["S_WIPE"] == "idle"
    # rns: a distance-3 state code (explicit encodings), read by value
    rns = T.engine_phases("rns")
    assert rns.register == "state_q" and [rns.kind(v) for v in sorted(rns.codes)] == \
        ["idle", "load", "compute", "store", "idle", "idle"]
    assert rns.codes[0b010101] == "Exec" and rns.name(0b010100) == "state_20"
    assert all(bin(a ^ b).count("1") >= 3 for a in rns.codes for b in rns.codes if a != b)
    with pytest.raises(PkaError):
        T.enum_names("rns", "state_e")        # names by index only for dense encodings
    assert "RC_CHAIN" in T.enum_names("hscm", "rc_e")


def test_partitions() -> None:
    t = T.make_target("modexp-ct", "hscm", 5, True, bits=128)
    p = int(t.info["modulus"], 16)
    assert p.bit_length() == 128 and t.bits == 128 + 64 and t.info["order_2adic_valuation"] == T.v2(p - 1) >= 1
    assert 1 <= t.fixed < p - 1 and t.fixed == T.make_target("modexp-ct", "hscm", 5, False, bits=128).fixed
    e = T.make_target("ecc-mul", "rns", 5, True, curve="P-256")
    assert e.size == "p256" and e.varies == "scalar"
    r = T.make_target("rsa-crt", "hscm", 5, True, bits=256)
    assert pow(r.expect(r.fixed), int(r.info["e"]), int(r.info["n"], 16)) == r.fixed
    from pka.errors import PkaError
    with pytest.raises(PkaError):
        T.make_target("modexp-ct", "victor", 5, True, bits=128)
    with pytest.raises(PkaError):
        T.make_target("ecc-mul", "rns", 5, True, bits=256)


# ---- a small TVLA on the RTL ---------------------------------------------------------------------------

SMALL = ["--op", "modexp-ct", "--engine", "hscm", "--bits", "128", "--param", "pes=2", "--traces", "30",
         "--seed", "3"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    from pka.cli import main

    out: dict[str, dict] = {}
    tmp = tmp_path_factory.mktemp("tvla")
    for blinding in ("off", "on"):
        png = tmp / f"{blinding}.png"
        import contextlib
        import io

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            main(["tvla", *SMALL, "--blinding", blinding, "--png", str(png), "--json"])
        out[blinding] = json.loads(buf.getvalue())
    return out


@pytest.mark.rtl
def test_small_tvla_shape(runs: dict[str, dict]) -> None:
    for blinding, d in runs.items():
        assert SPEC_KEYS <= set(d), sorted(SPEC_KEYS - set(d))
        assert d["traces"] == 30 and d["blinding"] == blinding and d["engine"] == "hscm"
        first, last = d["window"]
        assert d["samples"] == last - first + 1 > 1000
        assert Path(d["png"]).is_file() and Path(d["png"]).stat().st_size > 10_000
        names = [e["name"] for e in d["excluded"]]
        assert names == ["driver bus transfers", "sequencer before the engine command", "engine load", "result",
                         "engine store", "sequencer after the engine command"]
        # the excluded cycles and the window tile the command, in order
        spans = [e["cycles"] for e in d["excluded"][1:]]
        assert spans[0][0] == 0 and spans[1][1] + 1 == first and last + 1 == spans[2][0]
        assert all(a[1] + 1 == b[0] for a, b in zip(spans[2:], spans[3:]))
        assert spans[-1][1] == d["command"]["cycles"]
        assert d["command"]["op"] == "MODEXP_CT" and d["degenerate_samples"] == 0
        assert [s["state"] for s in d["window_states"]][-1] == "S_RUN"
        assert d["registers"]["bits"] > 60_000 and d["registers"]["groups"] == ["pe", "eng", "eram"]
        assert len(d["over_4_5"]) == min(200, d["cycles_over_4_5"])
    # blinding makes the ladder 64 steps longer; the same RTL both ways
    assert runs["on"]["samples"] > runs["off"]["samples"]
    assert runs["on"]["registers"] == runs["off"]["registers"]


@pytest.mark.rtl
def test_small_tvla_off_finds_the_leak(runs: dict[str, dict]) -> None:
    d = runs["off"]
    assert d["max_abs_t"] > 4.5
    assert d["cycles_over_4_5"] > 100 * max(1.0, d["expected_over_4_5_if_no_leak"])
    assert d["halves"]["cycles_over_4_5_in_both"] > 10      # confirmed by the repeated test


@pytest.mark.rtl
def test_small_tvla_on_shows_no_confirmed_leak(runs: dict[str, dict]) -> None:
    on, off = runs["on"], runs["off"]
    assert on["halves"]["cycles_over_4_5_in_both"] == 0
    assert on["max_abs_t"] < off["max_abs_t"] / 2
    # chance alone: the count over 4.5 stays near what no leak would give
    assert on["cycles_over_4_5"] <= 5 + 3 * on["expected_over_4_5_if_no_leak"]


@pytest.mark.rtl
def test_a_variable_time_operation_fails_loudly() -> None:
    """Plain MODEXP (left-to-right binary: the cycles follow the exponent's weight) cannot be aligned:
    the trace of an exponent of another weight is refused."""
    from pka.regs import Op

    t = T.make_target("modexp-ct", "hscm", 3, False, bits=128, params={"pes": 2})
    p = int(t.info["modulus"], 16)
    base = int(t.info["base"], 16)
    t.opcode = int(Op.MODEXP)
    t.run = lambda pka, e: int(pka.modexp(base, e, p, "hscm", params=t.params).result)
    t.fixed = (1 << 127) | 1                    # weight 2
    tv = T.Tvla(t, False, 3)
    try:
        tv.warm_up(1)
        lay, _ = tv.layout()
        assert len(tv.trace(t.fixed, lay)) == lay.span      # the same exponent aligns
        with pytest.raises(T.AlignmentError):
            tv.trace((1 << 128) - 1, lay)                   # weight 128: more multiplications
    finally:
        tv.close()
