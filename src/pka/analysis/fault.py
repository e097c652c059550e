"""Fault-injection campaign on the simulated pka_top (issue 13, item 4): one bit flip per run.

For each injection: the simulation is put back into the same clean state (reset, then every state
element and the driver's knowledge of the device from a snapshot taken with the key loaded), the
operation is started through the bus by the unchanged driver (pka.driver.Pka.rsa_crt / ecc_mul_rns:
operands, LEN/ARG/CMD; the key's set-up is not repeated), and when the CMD write has been
accepted the campaign takes over for a moment: it clocks a random number of cycles k in
[0, D) (D = the fault-free operation's cycles from the CMD write to its interrupt), flips one random
bit of one random state element, and hands back to the driver, which waits for the interrupt at
most 2D - k more cycles (twice the operation's bound in all), reads STATUS and the result.

Outcomes: detected (STATUS = ERR_FAULT), masked (right result, OK), released_wrong (wrong result,
OK, or a value the host cannot even convert: what a result check must prevent), hang (no done
within 2D), other (another error status, e.g. ERR_NO_INVERSE from hscm's own key consistency check
u q + v p = N + 1, ERR_OPERAND_RANGE from a range check: the fault was caught, but not as a fault;
HOST_<code>, the hardware said OK but the driver refused to go on, e.g. HOST_ERR_BUSY for a command
dropped while busy (REJECT); BUS_ERROR, an AXI error response to the driver's reads after the
operation; SIM_STOP, an RTL $fatal reached: counted by code in `other_codes`).

Targets: a group is drawn uniformly among the target groups (pe, eram, eng, seq, ram, ctrl: see
pka.analysis.state), then one entry (a register, one entry of a register array, one memory word)
uniformly within the group, then one of its bits. RAM words are targets only once the operation
has read or written them (tracked at the RAM port from the CMD write on): a flip of an input before
it is first read, or of the result after release, is outside a result check's reach (doc/fault.md).
"""

from __future__ import annotations

import bisect
import copy
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from pka.analysis.state import RAM, CmdHookBus, StateElem, StateSim, has_top_param, top_config
from pka.errors import PkaError, Status
from pka.sim import SimTimeout

OUTCOMES = ("detected", "masked", "released_wrong", "hangs", "other")
TARGET_GROUPS = ("pe", "eram", "eng", "seq", "ram", "ctrl")
CHECK_PARAM = "EnResultCheck"     # pka_top's build parameter of the result check (issue 13, item 3)


@dataclass
class Injection:
    index: int
    cycle: int          # cycles after the CMD write
    target: str
    group: str
    entry: int
    bit: int
    outcome: str
    status: str | None  # STATUS code name, None for a hang
    done: int | None = None   # cycles from the CMD write to the interrupt (None: no interrupt)
    detail: str | None = None  # the driver's error, when it raised one

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Campaign:
    """The figures of one campaign (`as_json` is what `pka fault --json` prints)."""

    op: str
    engine: str
    size: str
    params: dict[str, Any]
    result_check: bool | None
    check_param: bool
    op_cycles: int
    state_elements: int
    state_bits: int
    seed: int
    counts: dict[str, int] = field(default_factory=lambda: {k: 0 for k in OUTCOMES})
    by_target: dict[str, dict[str, int]] = field(default_factory=dict)
    other_codes: dict[str, int] = field(default_factory=dict)
    injections: list[Injection] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, inj: Injection) -> None:
        self.injections.append(inj)
        self.counts[inj.outcome] += 1
        g = self.by_target.setdefault(inj.group, {"injections": 0, **{k: 0 for k in OUTCOMES}})
        g["injections"] += 1
        g[inj.outcome] += 1
        if inj.outcome == "other" and inj.status:
            self.other_codes[inj.status] = self.other_codes.get(inj.status, 0) + 1

    def escapes(self) -> dict[str, int]:
        """{element (memory[entry]): count} of the injections that released a wrong result."""
        out: dict[str, int] = {}
        for i in self.injections:
            if i.outcome == "released_wrong":
                name = f"{i.target}[{i.entry}]" if i.target.endswith("mem_q") else i.target
                out[name] = out.get(name, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def as_json(self) -> dict[str, Any]:
        n = len(self.injections)
        return {"injections": n, **self.counts, "by_target": self.by_target, "other_codes": self.other_codes,
                "released_wrong_by_element": self.escapes(),
                "op": self.op, "engine": self.engine, "size": self.size, "params": self.params,
                "result_check": self.result_check, "check_param_in_rtl": self.check_param,
                "op_cycles": self.op_cycles, "state_elements": self.state_elements, "state_bits": self.state_bits,
                "seed": self.seed, "seconds": round(self.seconds, 1),
                "injections_per_minute": round(60 * n / self.seconds, 1) if self.seconds else None}


def _code(code: int) -> str:
    """A status code's name (pka.regs.Status), or CODE_n for a value no status has (a flipped code)."""
    return Status(code).name if code in Status._value2member_map_ else f"CODE_{code}"


# ---- the operations -----------------------------------------------------------------------------------

@dataclass
class Operation:
    name: str
    engine: str
    size: str
    bits: int                        # the build's operand size
    params: dict[str, Any]
    run: Callable[[Any], int]        # pka.driver.Pka -> result (raises PkaError on a status)
    expected: int


def rsa_crt_operation(engine: str, bits: int, params: dict[str, Any], seed: int) -> Operation:
    """m^d mod n by RSA_CRT for a key and message made from `seed`: the primes of pka.proto.keys'
    seeded keys (`pka rsa sign --bits B --seed S`), any even size from 64 bits (CI uses small ones)."""
    from pka.model.common import CrtKey
    from pka.proto.keys import seeded_prime

    if bits < 64 or bits % 2:
        raise PkaError(Status.ERR_LENGTH, "RSA size must be even, at least 64 bits")
    rng = random.Random(seed)
    p = seeded_prime(rng, bits // 2, 65537)
    q = seeded_prime(rng, bits // 2, 65537)
    while q == p:
        q = seeded_prime(rng, bits // 2, 65537)
    key = CrtKey.from_pq(max(p, q), min(p, q))
    m = random.Random(seed ^ 0x5A5A).randrange(2, key.n)
    return Operation("rsa-crt", engine, f"{bits} bits", bits, params,
                     lambda pka: pka.rsa_crt(m, key, engine, params=params).result, pow(m, key.d, key.n))


def ecc_mul_operation(engine: str, curve: str, params: dict[str, Any], seed: int) -> Operation:
    """x(k G) by ECC_MUL for a scalar made from `seed`."""
    from pka.model import rns
    from pka.proto.keys import curve_name

    name = curve_name(curve)
    c = rns._curve(name)
    k = random.Random(seed).randrange(1, c.order)
    pt = rns.affine_mul(c, k, (c.gx, c.gy))
    assert pt is not None
    return Operation("ecc-mul", engine, name, c.p.bit_length(), params,
                     lambda pka: pka.ecc_mul_rns(name, k, params).result, pt[0])


# ---- the campaign -----------------------------------------------------------------------------------

class Injector:
    """One simulation set up for an operation: the clean state, the fault-free run, the injections."""

    def __init__(self, op: Operation, check: bool = True, groups: Sequence[str] = TARGET_GROUPS,
                 progress: Callable[[str], None] | None = None, writable: bool = False) -> None:
        self.op = op
        self.writable = writable   # the _rw state build (Verilator's reference semantics; slower)
        self.check_param = has_top_param(CHECK_PARAM)
        extra = [(CHECK_PARAM, 0)] if (self.check_param and not check) else []
        # True/False: the build's result check on/off; None: pka_top has no parameter for it (the RTL's
        # own behaviour, whatever it is)
        self.result_check: bool | None = check if self.check_param else None
        self.cfg = top_config(op.engine, op.params, op.bits, extra)
        self.groups = list(groups)
        self.restarts = 0
        if progress:
            progress(f"pka_top with its state public: {op.engine} {dict(self.cfg.params)} "
                     "(the first run builds it)")
        self._start()

    def _start(self) -> None:
        """A new simulation: a first fault-free run (it loads the key: the per-key set-up, inside the
        accelerator or on the host, happens once), the snapshot of the device (every state element)
        and of the driver's knowledge of it (which key and moduli the slots hold, cached constants),
        a second fault-free run from there (the steady state: its cycles are the operation's), and a
        third from the restored snapshot, which must repeat the second exactly."""
        from pka.driver import Pka

        self.sim = StateSim(self.cfg, writable=self.writable)
        self.bus = CmdHookBus(self.sim)
        self.pka = Pka(self.bus)
        got, _ = self._run_clean()
        if got != self.op.expected:
            raise RuntimeError(f"{self.op.name}: the fault-free run gives a wrong result")
        self.sim.snap_save()
        self._driver = {k: copy.deepcopy(v) for k, v in vars(self.pka).items() if k != "bus"}
        got, self.cycles = self._run_clean()
        got3, cycles3 = self._run_clean(restore=True)
        if (got, got3, cycles3) != (self.op.expected, self.op.expected, self.cycles):
            raise RuntimeError(f"{self.op.name}: a restored run differs from the fault-free run "
                               f"({cycles3} vs {self.cycles} cycles)")
        self.table = self.sim.table
        self._units = self._target_units()
        # the injection window: every cycle from the CMD write to the interrupt; the sequencer is busy
        # throughout (STATUS.BUSY, the RAM closed to the bus) up to the last of them
        self.window = self.cycles

    def restore(self) -> None:
        """The clean state: reset (the RAM zeroized, control registers cleared), the driver's set-up
        (interrupt enable), every state element from the snapshot, the driver's knowledge of the
        device as it was at the snapshot."""
        from pka.driver import Pka

        self.sim.reset()
        self.sim.idle(self.sim.elem(RAM).depth + 16)   # the RAM's zeroization after reset (one word a cycle)
        self.pka = Pka(self.bus)
        self.sim.snap_load()
        self.sim.asserts(True)
        for k, v in self._driver.items():
            setattr(self.pka, k, copy.deepcopy(v))

    def _run_clean(self, restore: bool = False) -> tuple[int, int]:
        if restore:
            self.restore()
        res = self.op.run(self.pka)
        assert self.pka.last is not None
        return res, self.pka.last.waited

    def _target_units(self) -> dict[str, tuple[list[StateElem], list[int]]]:
        """Per group: its elements and the cumulative entry counts (uniform choice of an entry)."""
        out: dict[str, tuple[list[StateElem], list[int]]] = {}
        for g in self.groups:
            elems = [e for e in self.sim.table if e.group == g and not (g == "ram" and e.name.endswith("mem_q"))]
            cum, total = [], 0
            for e in elems:
                total += e.depth
                cum.append(total)
            out[g] = (elems, cum)
        return out

    def _choose(self, rng: random.Random, touched: list[int]) -> tuple[StateElem, int, int]:
        groups = [g for g in self.groups if self._units[g][0] or (g == "ram" and touched)]
        g = rng.choice(groups)
        elems, cum = self._units[g]
        if g == "ram":
            # the RAM's words the operation has used, and the RAM's read register
            ram = self.sim.elem(RAM)
            n = len(touched) + (cum[-1] if cum else 0)
            u = rng.randrange(n)
            if u < len(touched):
                return ram, touched[u], rng.randrange(ram.width)
            u -= len(touched)
        else:
            u = rng.randrange(cum[-1])
        i = bisect.bisect_right(cum, u)
        e = elems[i]
        entry = u - (cum[i - 1] if i else 0)
        return e, entry, rng.randrange(e.width)

    def inject(self, index: int, rng: random.Random, cycle: int | None = None,
               flips: Sequence[tuple[str, int]] = ()) -> Injection:
        """One run with a fault: a random bit of a random element at a random cycle, or (a targeted
        fault, tests) the given `flips` ((element name, bit), entry 0, all at once) at `cycle`; the
        first flip is the one recorded. The outcome is classified the same way either way."""
        self.restore()
        d = self.cycles
        k = rng.randrange(self.window) if cycle is None else cycle
        chosen: dict[str, Any] = {}

        def at_cmd() -> None:
            self.sim.track(True)
            if k:
                self.sim.idle(k)
            if flips:
                for name, b in flips:
                    self.sim.flip(name, b)
                chosen.update(elem=self.sim.elem(flips[0][0]), entry=0, bit=flips[0][1])
            else:
                touched = self.sim.touched()
                e, entry, bit = self._choose(rng, touched)
                self.sim.flip(e, bit, entry)
                chosen.update(elem=e, entry=entry, bit=bit)
            self.pka.max_cycles = 2 * d - k

        self.bus.on_cmd = at_cmd
        self.pka.last = None
        status: str | None
        detail: str | None = None
        try:
            result = self.op.run(self.pka)
            status = "OK"
            outcome = "masked" if result == self.op.expected else "released_wrong"
        except SimTimeout:
            outcome, status = "hangs", None
        except PkaError as exc:
            last = self.pka.last
            detail = str(exc)
            if last is None and exc.status == Status.ERR_TIMEOUT:
                outcome, status = "hangs", None   # the driver's own wait ran out (it aborts and raises)
            elif last is not None and last.status == Status.ERR_FAULT:
                outcome, status = "detected", "ERR_FAULT"
            elif last is not None and last.status != Status.OK:
                outcome, status = "other", _code(last.status)
            else:
                # the hardware said OK (or never got as far as a status), the driver refused what
                # followed (a dropped command flagged by REJECT, a tainted slot, a point at infinity):
                # no value delivered, not the designed fault response either
                outcome, status = "other", "HOST_" + _code(int(exc.status))
        except (AssertionError, ValueError) as exc:
            last = self.pka.last
            if last is None:
                raise
            detail = f"{type(exc).__name__}: {exc}"
            if last.status == Status.OK:
                # status OK, but the host cannot even convert the result (rns: the two residue
                # halves disagree): a wrong value released
                outcome, status = "released_wrong", "OK"
            else:
                # the driver could not name the status code the hardware reported (a flipped code)
                outcome, status = "other", _code(last.status)
        except RuntimeError as exc:
            detail = str(exc).splitlines()[0] if str(exc) else None
            if "SLVERR" in str(exc):
                # the bus answered an access of the driver with an error (a flip in the bus side)
                outcome, status = "other", "BUS_ERROR"
            elif "exited" in str(exc):
                # the simulation stopped (an RTL $fatal/$stop reached from the flipped state): a new one
                outcome, status = "other", "SIM_STOP"
                self.restarts += 1
                self.sim.close()
                self._start()
            else:
                raise
        e = chosen["elem"]
        last = self.pka.last
        done = last.waited + k if (last is not None and outcome != "hangs" and status != "SIM_STOP") else None
        return Injection(index, k, e.name, e.group, chosen["entry"], chosen["bit"], outcome, status, done, detail)

    def close(self) -> None:
        self.sim.close()


def run_campaign(op: Operation, injections: int, seed: int, check: bool = True,
                 groups: Sequence[str] = TARGET_GROUPS, progress: Callable[[str], None] | None = None,
                 log: Path | None = None) -> Campaign:
    """`injections` single-bit flips into `op`, reproducible from `seed`."""
    t0 = time.monotonic()
    inj = Injector(op, check, groups, progress)
    try:
        table = inj.table
        camp = Campaign(op.name, op.engine, op.size, dict(op.params), inj.result_check, inj.check_param, inj.cycles,
                        len(table), sum(e.bits for e in table), seed)
        rng = random.Random(seed)
        fh = open(log, "w") if log else None
        shown = time.monotonic()
        try:
            for i in range(injections):
                one = inj.inject(i, rng)
                camp.add(one)
                if fh:
                    fh.write(json.dumps(one.as_dict()) + "\n")
                if progress and (time.monotonic() - shown > 10 or i + 1 == injections):
                    shown = time.monotonic()
                    progress(f"{i + 1}/{injections} injections: " + ", ".join(f"{k} {v}" for k, v in camp.counts.items()))
        finally:
            if fh:
                fh.close()
    finally:
        inj.close()
    camp.seconds = time.monotonic() - t0
    return camp


def campaign(op: str, engine: str, injections: int, seed: int, bits: int | None = None, curve: str | None = None,
             params: dict[str, Any] | None = None, check: bool = True, groups: Sequence[str] = TARGET_GROUPS,
             progress: Callable[[str], None] | None = None, log: Path | None = None) -> Campaign:
    """The campaign of `pka fault`: op rsa-crt (engine hscm, `bits`) or ecc-mul (engine rns, `curve`)."""
    from pka.engines import get_engine, parse_params

    full = parse_params(get_engine(engine), ())
    full.update(params or {})
    if op == "rsa-crt":
        if bits is None:
            raise PkaError(Status.ERR_PARAM, "rsa-crt needs --bits")
        operation = rsa_crt_operation(engine, bits, full, seed)
    elif op == "ecc-mul":
        if curve is None:
            raise PkaError(Status.ERR_PARAM, "ecc-mul needs --curve")
        operation = ecc_mul_operation(engine, curve, full, seed)
    else:
        raise PkaError(Status.ERR_PARAM, f"unknown operation {op!r} (rsa-crt, ecc-mul)")
    bad = [g for g in groups if g not in TARGET_GROUPS]
    if bad:
        raise PkaError(Status.ERR_PARAM, f"unknown target group(s) {', '.join(bad)} ({', '.join(TARGET_GROUPS)})")
    return run_campaign(operation, injections, seed, check, groups, progress, log)
