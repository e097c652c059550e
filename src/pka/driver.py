"""pka.driver: the accelerator through its bus. Operands go into the slot windows, a command into
CMD, the driver waits for the interrupt and reads STATUS, the cycle counters and the result, all as
AXI4-Lite transactions on the simulated pka_top (pka.rtl.top.TopSim), exactly as a CPU would.

Two layers:

  Pka(bus)          one device: write_slot / read_slot / command, and one method per opcode
                    (mont_params, modadd, modsub, modexp, modmul, modinv, rsa_crt, ecc_mul, ...).
  backend(engine)   an object with the model backend's functions (modexp, modmul, rsa_crt, ecc_mul,
                    each taking `params` and returning OpResult) running on a cached pka_top build
                    holding that engine: what `pka rsa|ecc --backend rtl` calls to go through the bus.

Status codes other than OK raise PkaError with the hardware's code; OpResult.cycles is the
hardware's COMPUTE register (engine cycles, as the papers count them), io_cycles the engines'
operand I/O, and detail carries the wall cycles (CYCLES), the bus cycles of the operation and the
cycles waited for the interrupt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from pka.errors import PkaError, Status
from pka.model.common import CrtKey, OpResult
from pka.regs import FIELDS, ID_MAGIC, SECRET_SLOTS, SLOT_BASE, SLOT_STRIDE, SLOT_WINDOW_WORDS, Engine, Reg
from pka.sim import Op, SimTimeout, Slot, from_words, to_words

# ---- the register map: generated from data/pka.rdl (pka.regs) ---------------------------------------
INTR_DONE = 1 << FIELDS["INTR_STATE"]["DONE"][0]
INTR_REJECT = 1 << FIELDS["INTR_STATE"]["REJECT"][0]
INTR_TAINT = 1 << FIELDS["INTR_STATE"]["TAINT"][0]
MODULUS_SLOTS = frozenset({int(Slot.N), int(Slot.P), int(Slot.Q)})
OP_ZEROIZE = Op.ZEROIZE

ENGINE_IDS = {e.name.lower(): int(e) for e in Engine if e != Engine.AUTO}


ECDSA_NONCE_GIVEN = 1 << 8   # ECDSA_SIGN's ARG[8]: the nonce is the host's, in SLOT_P
MONT_R_ENGINE = 0xFFFF       # MONT_PARAMS's ELEN: the engine's own Montgomery exponent (sw/pka.h PKA_R_ENGINE)


def slot_addr(slot: int, word: int = 0) -> int:
    return SLOT_BASE + int(slot) * SLOT_STRIDE + 4 * word


class Bus(Protocol):
    """What the driver needs from a bus (pka.rtl.top.TopSim implements it)."""

    bus_cycles: int

    def read32(self, addr: int) -> int: ...
    def write32(self, addr: int, value: int, strb: int = 0xF) -> int: ...
    def write_words(self, addr: int, words: Sequence[int]) -> int: ...
    def read_words(self, addr: int, n: int) -> list[int]: ...
    def wait_irq(self, max_cycles: int, progress: Callable[[int], None] | None = None,
                 progress_every: int = 1 << 18) -> int: ...


@dataclass(frozen=True)
class Completion:
    """What the hardware reports for one command."""

    status: int
    cycles: int        # CYCLES: from the command to done
    compute: int       # COMPUTE: engine cycles (as the papers count) + the sequencer's own cycles
    io: int            # IO: the engines' operand I/O cycles
    waited: int        # cycles the driver waited for the interrupt after writing CMD


@dataclass
class Hwcfg:
    max_len: int
    engines: int       # bit mask of engine ids
    slot_aw: int
    ops: int           # bit mask of executable opcodes
    rns_max_len: int = 0   # ENGCFG.RNS_MAX_LEN: rns's longest modulus (pka_top's RnsMaxLen; 0 without rns)
    hscm_w: int = 0        # ENGCFG.HSCM_W: hscm's word size (0 without hscm)

    @property
    def slot_words(self) -> int:
        return 1 << self.slot_aw

    def has_engine(self, name: str) -> bool:
        return bool(self.engines >> ENGINE_IDS[name] & 1)

    def serves(self, op: int) -> bool:
        return bool(self.ops >> int(op) & 1)


def words_for(bits: int) -> int:
    return max(1, (bits + 31) // 32)


@dataclass
class Pka:
    """One pka_top behind a bus."""

    bus: Bus
    max_cycles: int = 200_000_000
    cfg: Hwcfg = field(init=False)
    last: Completion | None = field(init=False, default=None)
    _w_key: tuple[int, int, int] | None = field(init=False, default=None)
    # what this driver knows the moduli slots hold (a modulus write while secrets are bound makes the
    # hardware zeroize every secret slot first, so the driver writes a modulus only when it changes)
    _moduli: dict[int, tuple[int, int]] = field(init=False, default_factory=dict)
    _key: Any = field(init=False, default=None)        # the CRT key whose secrets are in the slots
    _epub: tuple[int, int] | None = field(init=False, default=None)
    _order: tuple[int, int] | None = field(init=False, default=None)   # what A_HI holds (rns: the order)
    blinding: bool = True          # CFG.BLIND_OFF = not blinding (written at attach and by set_blinding)

    def __post_init__(self) -> None:
        ident = self.bus.read32(Reg.ID)
        if ident != ID_MAGIC:
            raise RuntimeError(f"no pka_top at this address (ID {ident:#x})")
        hw = self.bus.read32(Reg.HWCFG)
        eng = self.bus.read32(Reg.ENGCFG)
        self.cfg = Hwcfg(hw & 0xFFFF, hw >> 16 & 0xFF, hw >> 24 & 0xF, self.bus.read32(Reg.OPS),
                         eng & 0xFFFF, eng >> 16 & 0xFF)
        self.bus.write32(Reg.INTR_ENABLE, INTR_DONE)
        self.wait_idle()
        # a DONE or REJECT left pending by an earlier user of the block would end our first wait early
        self.bus.write32(Reg.INTR_STATE, INTR_DONE | INTR_REJECT | INTR_TAINT)
        self.set_blinding(self.blinding)

    # -- plumbing -------------------------------------------------------------------------------
    def status(self) -> int:
        return self.bus.read32(Reg.STATUS)

    def busy(self) -> bool:
        return bool(self.status() & 1)

    def wait_idle(self, max_polls: int = 100_000) -> None:
        for _ in range(max_polls):
            if not self.busy():
                return
        raise PkaError(Status.ERR_TIMEOUT, f"pka_top stays busy after {max_polls} polls of STATUS")

    def _check_slot(self, slot: int, nwords: int) -> None:
        if not 0 <= int(slot) < len(Slot):
            raise PkaError(Status.ERR_OPERAND_RANGE, f"no slot {slot} (slots 0..{len(Slot) - 1})")
        if not 1 <= nwords <= self.cfg.slot_words:
            raise PkaError(Status.ERR_LENGTH, f"{nwords} words: a slot of this build holds 1..{self.cfg.slot_words}")

    def write_slot(self, slot: int, value: int, nwords: int) -> None:
        self._check_slot(slot, nwords)
        try:
            words = to_words(value, nwords)
        except ValueError:
            raise PkaError(Status.ERR_OPERAND_RANGE, f"operand does not fit {nwords} words") from None
        self.bus.write_words(slot_addr(slot), words)
        self._order = (value, nwords) if int(slot) == Slot.A_HI else self._order
        if int(slot) in MODULUS_SLOTS:
            # the hardware zeroized the secrets first if they were bound (STATUS.BOUND)
            self._moduli[int(slot)] = (value, nwords)
            self._key = None
        if int(slot) == Slot.N:
            self._w_key = None if self._w_key is None or self._w_key[0] != value else self._w_key
        self._check_reject()

    def write_modulus(self, slot: int, value: int, nwords: int) -> None:
        """Write N, P or Q unless the slot already holds this value (a modulus write while secrets are
        bound zeroizes every secret slot: doc/security.md, key binding)."""
        if self._moduli.get(int(slot)) != (value, nwords):
            self.write_slot(slot, value, nwords)

    def read_slot(self, slot: int, nwords: int) -> int:
        """The slot's words; a tainted slot reads 0 and sets INTR_STATE.TAINT: that raises here."""
        self._check_slot(slot, nwords)
        value = from_words(self.bus.read_words(slot_addr(slot), nwords))
        intr = self.bus.read32(Reg.INTR_STATE)
        if intr & INTR_TAINT:
            self.bus.write32(Reg.INTR_STATE, INTR_TAINT)
            raise PkaError(Status.ERR_OPERAND_RANGE, f"slot {Slot(slot).name} is tainted (written by an operation "
                           "that read a secret): it reads 0 until written or zeroized")
        if intr & INTR_REJECT:
            self._check_reject()
        return value

    def _check_reject(self) -> None:
        """A slot access or a command while busy was dropped (INTR_STATE.REJECT): raise ERR_BUSY."""
        if self.bus.read32(Reg.INTR_STATE) & INTR_REJECT:
            self.bus.write32(Reg.INTR_STATE, INTR_REJECT)
            raise PkaError(Status.ERR_BUSY, "pka_top was busy: a command or slot access was dropped (REJECT)")

    def start(self, op: int, length: int, elen: int = 0, arg: int = 0, engine: int = 0) -> None:
        """Write LEN, ARG and CMD (the last write starts the command)."""
        if not 0 <= length <= 0xFFFF or not 0 <= elen <= 0xFFFF:
            raise PkaError(Status.ERR_LENGTH, f"lengths {length}, {elen} do not fit LEN's 16-bit fields")
        self.bus.write32(Reg.LEN, (length & 0xFFFF) | (elen & 0xFFFF) << 16)
        self.bus.write32(Reg.ARG, arg & 0xFFFFFFFF)
        self.bus.write32(Reg.CMD, (int(op) & 0xFF) | (engine & 0xF) << 8)

    def abort(self) -> Completion:
        """CTRL.ABORT: stop the running operation, zeroize; waits for its done (ERR_ABORTED)."""
        self.bus.write32(Reg.CTRL, 1)
        self._forget()
        return self.finish()

    def _forget(self) -> None:
        self._w_key = None
        self._moduli.clear()
        self._key = None
        self._epub = None
        self._order = None

    def finish(self, progress: Callable[[int], None] | None = None) -> Completion:
        """Wait for the DONE interrupt, read the status and counters, clear the interrupt.

        A wait longer than max_cycles aborts the operation (CTRL.ABORT) and raises ERR_TIMEOUT; a
        command dropped because the block was busy raises ERR_BUSY."""
        try:
            waited = self.bus.wait_irq(self.max_cycles, progress)
        except SimTimeout:
            self.bus.write32(Reg.CTRL, 1)
            self._forget()
            self.bus.wait_irq(1 << 20)
            self.bus.write32(Reg.INTR_STATE, INTR_DONE | INTR_REJECT)
            raise PkaError(Status.ERR_TIMEOUT, f"no done within {self.max_cycles} cycles: aborted") from None
        st = self.bus.read32(Reg.STATUS)
        res = Completion(st >> 8 & 0xFF, self.bus.read32(Reg.CYCLES), self.bus.read32(Reg.COMPUTE),
                         self.bus.read32(Reg.IO), waited)
        self.bus.write32(Reg.INTR_STATE, INTR_DONE | INTR_TAINT)
        self.last = res
        if st >> 16 & 0xFF == Status.ERR_BUSY:
            self.bus.write32(Reg.INTR_STATE, INTR_REJECT)
            raise PkaError(Status.ERR_BUSY, "pka_top was busy: a command or slot access was dropped (REJECT)")
        if res.status in (Status.ERR_FAULT, Status.ERR_ABORTED, Status.ERR_TIMEOUT):
            self._forget() if res.status != Status.ERR_FAULT else None
        return res

    def command(self, op: int, length: int, elen: int = 0, arg: int = 0, engine: int = 0,
                progress: Callable[[int], None] | None = None) -> Completion:
        self.start(op, length, elen, arg, engine)
        return self.finish(progress)

    def run(self, op: int, length: int, elen: int = 0, arg: int = 0, engine: int = 0,
            progress: Callable[[int], None] | None = None) -> Completion:
        """command() that raises PkaError on a status other than OK."""
        res = self.command(op, length, elen, arg, engine, progress)
        if res.status != Status.OK:
            raise PkaError(Status(res.status), f"{Op(op).name if op in Op._value2member_map_ else op}: "
                           f"{Status(res.status).name}")
        return res

    def result(self, res: Completion, value: int, bus_start: int, **detail: Any) -> OpResult:
        d = {"wall_cycles": res.cycles, "bus_cycles": self.bus.bus_cycles - bus_start,
             "irq_wait_cycles": res.waited}
        d.update(detail)
        return OpResult(value, res.compute, res.io, d)

    # -- operations the sequencer runs itself ----------------------------------------------------
    def zeroize(self) -> Completion:
        self._forget()
        return self.run(OP_ZEROIZE, 0)

    def mont_params(self, n: int, length: int | None = None, r: int = 0, engine: str | None = None) -> OpResult:
        """W = 2^(2r) mod N into SLOT_W (r = 0: 32*ceil(len/32); r = MONT_R_ENGINE: the r the hardware
        knows for `engine`, or for the one MODMUL's automatic dispatch picks, so that the host needs
        no table of each engine's r; ERR_UNSUPPORTED for an engine without W) and MU = -N^-1 mod 2^64.

        OpResult.result is W; detail["mu"] the Montgomery constant."""
        length = length or max(1, n.bit_length())
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        self.write_modulus(Slot.N, n, nw)
        res = self.run(Op.MONT_PARAMS, length, r, engine=self.engine_id(engine))
        self._w_key = (n, length, r) if r != MONT_R_ENGINE else None
        w = self.read_slot(Slot.W, nw)
        mu = self.bus.read32(Reg.MU_LO) | self.bus.read32(Reg.MU_HI) << 32
        return self.result(res, w, b0, mu=mu)

    def mont_params_engine(self, n: int, length: int | None = None, engine: str | None = None) -> OpResult:
        """mont_params with the hardware's own r for `engine` (MONT_PARAMS, ELEN = 0xFFFF)."""
        return self.mont_params(n, length, MONT_R_ENGINE, engine)

    def _binary(self, op: int, a: int, b: int, n: int, length: int | None, engine: int) -> OpResult:
        length = length or max(1, n.bit_length())
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        self.write_modulus(Slot.N, n, nw)
        self.write_slot(Slot.A, a, nw)
        self.write_slot(Slot.B, b, nw)
        res = self.run(op, length, engine=engine)
        return self.result(res, self.read_slot(Slot.R, nw), b0)

    def modadd(self, a: int, b: int, n: int, length: int | None = None, engine: int = 0) -> OpResult:
        return self._binary(Op.MODADD, a, b, n, length, engine)

    def modsub(self, a: int, b: int, n: int, length: int | None = None, engine: int = 0) -> OpResult:
        return self._binary(Op.MODSUB, a, b, n, length, engine)

    # -- operations on an engine -------------------------------------------------------------------
    def engine_id(self, name: str | None) -> int:
        if name is None:
            return 0
        if not self.cfg.has_engine(name):
            raise PkaError(Status.ERR_UNSUPPORTED, f"engine {name} is not in this pka_top build")
        return ENGINE_IDS[name]

    def ensure_w(self, n: int, length: int, r: int) -> int:
        """SLOT_W = 2^(2r) mod N by MONT_PARAMS in hardware, unless this N and r are already there.

        Returns the COMPUTE cycles spent (0 when reused)."""
        key = (n, length, r)
        if getattr(self, "_w_key", None) == key:
            return 0
        self.write_modulus(Slot.N, n, words_for(length))
        res = self.run(Op.MONT_PARAMS, length, r)
        self._w_key = key
        return res.compute

    def set_blinding(self, on: bool) -> None:
        """CFG.BLIND_OFF: blinding from the entropy port (RSA_CRT, MODEXP_CT with a group order,
        ECC_MUL) on or off (off: the papers' cycle figures; tests)."""
        self.blinding = bool(on)
        self.bus.write32(Reg.CFG, 0 if on else 1 << FIELDS["CFG"]["BLIND_OFF"][0])

    def set_epub(self, e: int, nwords: int) -> None:
        """SLOT_EPUB: the public exponent RSA_CRT and MODEXP check their result against (0: no check)."""
        if self._epub != (e, nwords):
            self.write_slot(Slot.EPUB, e, nwords)
            self._epub = (e, nwords)

    def modexp(self, base: int, exp: int, n: int, engine: str | None = None, ct: bool = False,
               progress: Callable[[int], None] | None = None, params: dict[str, Any] | None = None,
               e_pub: int = 0, elen: int | None = None, order: int = 0) -> OpResult:
        """base^exp mod N (MODEXP, or MODEXP_CT with ct) on an engine; SLOT_W prepared in hardware.
        e_pub: a public exponent the hardware checks the result with (R^e_pub mod N == base) before
        releasing it (ERR_FAULT if not); 0: no check."""
        if exp < 0:
            raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
        prof = profile(engine or self.default_engine(Op.MODEXP_CT if ct else Op.MODEXP))
        if prof.name == "rns":
            return self._rns_modexp(base, exp, n, progress, params, ct, elen)
        length = max(1, n.bit_length())
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        mont = self.ensure_w(n, length, prof.r(length, params or {})) if prof.r is not None else 0
        self.write_modulus(Slot.N, n, nw)
        self.write_slot(Slot.A, base, nw)
        elen = exp.bit_length() if elen is None else elen
        if exp >> elen:
            raise PkaError(Status.ERR_OPERAND_RANGE, f"exponent longer than its length {elen}")
        self.write_slot(Slot.E, exp, words_for(elen))
        self.set_epub(e_pub, nw)
        arg = 0 if ct else int((params or {}).get("window", 0)) if prof.name == "hscm" else 0
        if ct and order:
            # exponent blinding (MODEXP_CT): E + r order with a 64-bit r, the group order in B
            self.write_slot(Slot.B, order, words_for(order.bit_length()))
            arg |= 1 << 31
        res = self.run(Op.MODEXP_CT if ct else Op.MODEXP, length, elen, arg, engine=self.engine_id(engine),
                       progress=progress)
        return self.result(res, self.read_slot(Slot.R, nw), b0, mont_params_cycles=mont, total_cycles=res.compute)

    def modmul(self, a: int, b: int, n: int, engine: str | None = None,
               progress: Callable[[int], None] | None = None, params: dict[str, Any] | None = None) -> OpResult:
        prof = profile(engine or self.default_engine(Op.MODMUL))
        if prof.name == "rns":
            return self._rns_modmul(a, b, n, progress, params)
        length = max(1, n.bit_length())
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        mont = self.ensure_w(n, length, prof.r(length, params or {})) if prof.r is not None else 0
        self.write_modulus(Slot.N, n, nw)
        self.write_slot(Slot.A, a, nw)
        self.write_slot(Slot.B, b, nw)
        res = self.run(Op.MODMUL, length, engine=self.engine_id(engine), progress=progress)
        return self.result(res, self.read_slot(Slot.R, nw), b0, mont_params_cycles=mont, total_cycles=res.compute)

    def modred(self, omega: int, n: int, engine: str | None = None,
               params: dict[str, Any] | None = None) -> OpResult:
        """(A_HI:A) mod N for omega < 2^(2 LEN) (MODRED); A_HI starts at word ceil(LEN/32)."""
        prof = profile(engine or self.default_engine(Op.MODRED))
        length = max(1, n.bit_length())
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        mont = self.ensure_w(n, length, prof.r(length, params or {})) if prof.r is not None else 0
        self.write_modulus(Slot.N, n, nw)
        self.write_slot(Slot.A, omega & ((1 << (32 * nw)) - 1), nw)
        self.write_slot(Slot.A_HI, omega >> (32 * nw), nw)
        res = self.run(Op.MODRED, length, engine=self.engine_id(engine))
        return self.result(res, self.read_slot(Slot.R, nw), b0, mont_params_cycles=mont)

    def mul(self, a: int, b: int, length: int, engine: str | None = None) -> OpResult:
        """The 2 LEN-bit product A B (MUL): R (low words) and R_HI (high words)."""
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        self.write_slot(Slot.A, a, nw)
        self.write_slot(Slot.B, b, nw)
        res = self.run(Op.MUL, length, engine=self.engine_id(engine))
        lo, hi = self.read_slot(Slot.R, nw), self.read_slot(Slot.R_HI, nw)
        return self.result(res, lo | hi << (32 * nw), b0)

    def rsa_crt(self, m: int, key: CrtKey, engine: str | None = None,
                progress: Callable[[int], None] | None = None, params: dict[str, Any] | None = None) -> OpResult:
        """m^d mod n with RSA_CRT (hscm, doc/hscm.md, doc/security.md). The host writes only the key
        (P, Q, DP, DQ, QINV, write-only slots, after the moduli N, P, Q) and e into SLOT_EPUB; the
        accelerator makes the Montgomery constants of p and q and p^-1 mod q itself, in internal
        storage (once per key: the first signature with a key pays for it), and releases the signature
        only if s^e mod n == m (else ERR_FAULT)."""
        name = engine or self.default_engine(Op.RSA_CRT)
        params = params or {}
        b0 = self.bus.bus_cycles
        nb = key.n.bit_length()
        nw = words_for(nb)
        hw = words_for(max(key.p.bit_length(), key.q.bit_length()))
        first = self._key != key
        # moduli first (a modulus write while secrets are bound zeroizes them), then the secrets
        self.write_modulus(Slot.N, key.n, nw)
        self.write_modulus(Slot.P, key.p, hw)
        self.write_modulus(Slot.Q, key.q, hw)
        if self._key != key:
            for slot, v in ((Slot.DP, key.dp), (Slot.DQ, key.dq), (Slot.QINV, key.qinv)):
                self.write_slot(slot, v, hw)
            self._key = key
        self.set_epub(key.e, nw)
        self.write_slot(Slot.A, m, nw)
        window = int(params.get("window", 0))
        res = self.run(Op.RSA_CRT, nb, key.p.bit_length(), (key.q.bit_length() & 0xFFFF) | (window << 16),
                       engine=self.engine_id(engine), progress=progress)
        return self.result(res, self.read_slot(Slot.R, nw), b0, path="pka_top RSA_CRT", key_setup=first,
                           total_cycles=res.compute)

    def montmul(self, a: int, b: int, n: int, engine: str | None = None,
                params: dict[str, Any] | None = None) -> OpResult:
        """A B R^-1 mod N in the engine's Montgomery domain and output range (MONTMUL). hscm takes
        its host constant N' = (mu N + 1)/2^2k in X0 (doc/hscm.md); its result has n + 2k + 1 bits."""
        name = engine or self.default_engine(Op.MONTMUL)
        length = max(1, n.bit_length())
        nw = words_for(length)
        rw = nw
        b0 = self.bus.bus_cycles
        self.write_modulus(Slot.N, n, nw)
        self.write_slot(Slot.A, a, nw)
        self.write_slot(Slot.B, b, nw)
        if name == "hscm":
            from pka.model import hscm
            w = int((params or {}).get("w", 16))
            self.write_slot(Slot.X0, hscm.modulus(n, w).nt if n % 2 and length >= hscm.min_bits(w) else 0, nw)
            rw = words_for(length + 2 * w + 1)
        res = self.run(Op.MONTMUL, length, engine=self.engine_id(engine))
        return self.result(res, self.read_slot(Slot.R, rw), b0)

    def modinv(self, a: int, n: int, engine: str | None = None,
               progress: Callable[[int], None] | None = None, params: dict[str, Any] | None = None) -> OpResult:
        """a^-1 mod N for a prime N (MODINV: Fermat on the engine's MODEXP, checked by MODMUL).
        SLOT_E and SLOT_B are used as scratch."""
        prof = profile(engine or self.default_engine(Op.MODEXP, binary=True))
        length = max(1, n.bit_length())
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        mont = self.ensure_w(n, length, prof.r(length, params or {})) if prof.r is not None else 0
        self.write_modulus(Slot.N, n, nw)
        self.write_slot(Slot.A, a, nw)
        res = self.run(Op.MODINV, length, engine=self.engine_id(engine), progress=progress)
        return self.result(res, self.read_slot(Slot.R, nw), b0, mont_params_cycles=mont)

    def ecc_check(self, x: int, y: int, a: int, b: int, p: int, engine: str | None = None,
                  params: dict[str, Any] | None = None) -> OpResult:
        """Whether (x, y) is on y^2 = x^3 + a x + b mod p (ECC_CHECK: ERR_NOT_ON_CURVE if not).
        The sequencer runs it with the engine's MODMUL; slots B, R, R_HI and X2 are scratch."""
        prof = profile(engine or self.default_engine(Op.MODMUL, binary=True))
        length = max(1, p.bit_length())
        nw = words_for(length)
        b0 = self.bus.bus_cycles
        mont = self.ensure_w(p, length, prof.r(length, params or {})) if prof.r is not None else 0
        self.write_modulus(Slot.N, p, nw)
        self.write_slot(Slot.A, x, nw)
        self.write_slot(Slot.B, y, nw)
        self.write_slot(Slot.X0, a % p, nw)
        self.write_slot(Slot.X1, b, nw)
        res = self.run(Op.ECC_CHECK, length, engine=self.engine_id(engine))
        return self.result(res, 1, b0, mont_params_cycles=mont)

    # -- the rns engine: residue vectors and constant tables written by the host (doc/rns.md) -------
    def _rns_vec(self, ctx: Any, x: int) -> list[int]:
        b, bp = ctx.to_rns(x)
        return list(b) + list(bp)

    def _rns_read(self, ctx: Any, slot: int) -> int:
        words = self.bus.read_words(slot_addr(slot), 2 * ctx.n)
        return int(ctx.from_rns((tuple(words[:ctx.n]), tuple(words[ctx.n:]))))

    def rns_run(self, op: int, ctx: Any, regs: dict[int, int], scalar: int = 0, elen: int = 0, expo: int = 0,
                progress: Callable[[int], None] | None = None, arg: int = 0, order: int = 0) -> Completion:
        """What pka.rtl.rns.write_context writes, through the bus, then the command."""
        self._rns_load(ctx, regs, scalar, elen, expo, order)
        return self.run(op, ctx.p.bit_length(), elen, arg, engine=ENGINE_IDS["rns"], progress=progress)

    def _rns_load(self, ctx: Any, regs: dict[int, int], scalar: int, elen: int, expo: int, order: int,
                  whole_p: bool = False, nonce: int | None = None) -> None:
        """The rns engine's operands and constants (doc/rns.md); whole_p: SLOT_N holds all of P (the
        engine reads its low word; ECDSA_SIGN's x mod p reads the rest); nonce: ECDSA_SIGN's given
        nonce into SLOT_P (after N, before E: a modulus write while a secret is bound clears them)."""
        from pka.model import rns as model

        self._w_key = None   # SLOT_W is overwritten with a residue vector below
        table = [v for row in ctx.table for v in row]
        if len(table) > self.cfg.slot_words:
            raise PkaError(Status.ERR_LENGTH, f"rns constant table of {len(table)} words exceeds the slot")
        if whole_p:
            # before E: a modulus write while a secret is bound clears the secret slots
            self.write_slot(Slot.N, ctx.p, words_for(ctx.p.bit_length()))
        else:
            self.bus.write_words(slot_addr(Slot.N), [ctx.p & 0xFFFFFFFF])
        if nonce is not None:
            self.write_slot(Slot.P, nonce, words_for(ctx.p.bit_length()))
        self.bus.write_words(slot_addr(Slot.X0), table)
        full = {model.IN_A: 0, model.IN_B: 0, model.RW: (ctx.m * ctx.m) % ctx.p, model.ONE: 1,
                model.CA: 0, model.CB2: 0, model.CM4B: 0}
        full.update(regs)
        self.bus.write_words(slot_addr(Slot.A), self._rns_vec(ctx, full[model.IN_A]))
        self.bus.write_words(slot_addr(Slot.B), self._rns_vec(ctx, full[model.IN_B]))
        self.bus.write_words(slot_addr(Slot.W), self._rns_vec(ctx, full[model.RW]))
        x1: list[int] = []
        for r in (model.ONE, model.CA, model.CB2, model.CM4B):
            x1 += self._rns_vec(ctx, full[r])
        self.bus.write_words(slot_addr(Slot.X1), x1)
        self.write_slot(Slot.E, scalar, words_for(max(elen, 1)))
        self.write_slot(Slot.X2, expo, words_for(ctx.p.bit_length()))
        # ECC_MUL: the group order in A_HI lets the sequencer blind the scalar (k + r n) when blinding
        # is on; 0: no scalar blinding (X25519: twist points have another order). Written only when it
        # changes: a write invalidates ECDSA_SIGN's W = R^2 mod n, which the sequencer keeps
        if self._order != (order, words_for(ctx.p.bit_length())):
            self.write_slot(Slot.A_HI, order, words_for(ctx.p.bit_length()))

    def ecdsa_sign(self, curve: str, d: int, h: int, params: dict[str, Any], k: int | None = None,
                   progress: Callable[[int], None] | None = None) -> OpResult:
        """ECDSA_SIGN (a build with rns and hscm; doc/top.md): the signature (r, s) of the hash value h
        (an integer; reduced mod n here, a public step) with the private key d. The nonce comes from
        the accelerator's entropy port, or is k (ARG[8]: written to the write-only SLOT_P, e.g. an
        RFC 6979 nonce); k^-1 and d stay in the accelerator: the host writes the curve's constants, G,
        n, d and h, and reads r (result) and s (detail["s"]). Cycles: the sequencer's COMPUTE
        (pka.rtl.top.ecdsa_compute)."""
        from pka.model import rns as model

        if not (self.cfg.has_engine("rns") and self.cfg.has_engine("hscm")):
            raise PkaError(Status.ERR_UNSUPPORTED, "ECDSA_SIGN needs a build with the rns and hscm engines")
        c = model._curve(curve)
        if str(params.get("alg", "mm")) == "sbmm":
            raise PkaError(Status.ERR_UNSUPPORTED, "rns RTL: the SBMM datapath is not in pka_top (use alg=mm)")
        bits = c.p.bit_length()
        if not c.order_known or c.order.bit_length() != bits:
            raise PkaError(Status.ERR_LENGTH, f"ECDSA_SIGN needs bits(n) = bits(p) ({curve}: "
                                              f"{c.order.bit_length()} and {bits})")
        if not 0 < d < c.order:
            raise PkaError(Status.ERR_OPERAND_RANGE, "the private key d must lie in [1, n - 1]")
        ctx = model.mm_context(c.p, int(params.get("w", 32)))
        nw = words_for(bits)
        b0 = self.bus.bus_cycles
        if k is not None and not 0 < k < c.order:
            raise PkaError(Status.ERR_OPERAND_RANGE, "the nonce k must lie in [1, n - 1]")
        self._rns_load(ctx, model.ecc_inputs(c, c.gx, ctx.m, c.gy), d, bits, c.p - 2, c.order, whole_p=True,
                       nonce=k)
        self.write_slot(Slot.EPUB, h % c.order, nw)
        self._epub = None
        arg = model.blind_arg(c) | (ECDSA_NONCE_GIVEN if k is not None else 0)
        res = self.run(Op.ECDSA_SIGN, bits, bits, arg, progress=progress)
        r = self.read_slot(Slot.R, nw)
        s = self.read_slot(Slot.R_HI, nw)
        return self.result(res, r, b0, s=s, curve=curve, n=ctx.n)

    def _rns_ctx(self, n: int, params: dict[str, Any] | None) -> Any:
        from pka.model import rns as model

        if str((params or {}).get("alg", "mm")) == "sbmm":
            raise PkaError(Status.ERR_UNSUPPORTED, "rns RTL: the SBMM datapath is not in pka_top (use alg=mm)")
        w = int((params or {}).get("w", 32))
        model.check_modulus(n, w)
        return model.mm_context(n, w)

    def _rns_modexp(self, base: int, exp: int, n: int, progress: Callable[[int], None] | None,
                    params: dict[str, Any] | None, ct: bool = False, elen: int | None = None) -> OpResult:
        """MODEXP (MODEXP_CT with ct) on rns: the operand as a residue vector (pka.rtl.rns.modexp's
        layout), through the bus."""
        from pka.model import rns as model

        ctx = self._rns_ctx(n, params)
        model._check_operand(base, n, "base")
        b0 = self.bus.bus_cycles
        elen = exp.bit_length() if elen is None else elen
        if exp >> elen:
            raise PkaError(Status.ERR_OPERAND_RANGE, f"exponent longer than its length {elen}")
        res = self.rns_run(Op.MODEXP_CT if ct else Op.MODEXP, ctx, {model.IN_A: base}, scalar=exp, elen=elen,
                           progress=progress)
        return self.result(res, self._rns_read(ctx, Slot.R) % n, b0, n=ctx.n, total_cycles=res.compute)

    def _rns_modmul(self, a: int, b: int, n: int, progress: Callable[[int], None] | None,
                    params: dict[str, Any] | None) -> OpResult:
        from pka.model import rns as model

        ctx = self._rns_ctx(n, params)
        model._check_operand(a, n, "a")
        model._check_operand(b, n, "b")
        b0 = self.bus.bus_cycles
        res = self.rns_run(Op.MODMUL, ctx, {model.IN_A: a, model.IN_B: b}, progress=progress)
        return self.result(res, self._rns_read(ctx, Slot.R) % n, b0, n=ctx.n, total_cycles=res.compute)

    def ecc_mul_rns(self, curve: str, k: int, params: dict[str, Any], point: tuple[int, int] | None = None,
                    progress: Callable[[int], None] | None = None, host_check: bool = True) -> OpResult:
        """k * point with the checked ECC_MUL (rns MM build, doc/rns.md): x and y of the point in
        SLOT_A and SLOT_B; the engine checks the point on the curve (ERR_NOT_ON_CURVE), runs the
        ladder of bits(order) steps, recovers y and checks the result on the curve (ERR_FAULT);
        ERR_INFINITY for the point at infinity. result = x, detail["y"] = y. host_check=False skips
        the driver's own point check (to exercise the hardware's)."""
        from pka.model import rns as model

        c = model._curve(curve)
        w = int(params.get("w", 32))
        model.check_scalar(c, k)
        px, py = point if point is not None else (c.gx, c.gy)
        if host_check:
            model.check_point(curve, px, py)
        if str(params.get("alg", "mm")) == "sbmm":
            raise PkaError(Status.ERR_UNSUPPORTED, "rns RTL: the SBMM datapath is not implemented (use alg=mm)")
        ctx = model.mm_context(c.p, w)
        elen = c.order.bit_length()
        b0 = self.bus.bus_cycles
        # the order in A_HI and r's length for this curve (ARG[5:4], model.blind_bits): the sequencer
        # blinds the scalar as k + r n when blinding is on
        res = self.rns_run(Op.ECC_MUL, ctx, model.ecc_inputs(c, px, ctx.m, py), scalar=k, elen=elen, expo=c.p - 2,
                           progress=progress, order=c.order, arg=model.blind_arg(c))
        x = self._rns_read(ctx, Slot.R) % c.p
        y = self._rns_read(ctx, Slot.R_HI) % c.p
        return self.result(res, x, b0, curve=curve, n=ctx.n, w=w, elen=elen, y=y, total_cycles=res.compute)

    def default_engine(self, op: int, binary: bool = False) -> str:
        """The engine automatic dispatch picks for `op` (pka_top_pkg::EnginePrio); binary: only
        engines on plain binary operands (not rns), as for the composite MODINV and ECC_CHECK."""
        for name in ENGINE_PRIO:
            if binary and name == "rns":
                continue
            if self.cfg.has_engine(name) and int(op) in profile(name).ops:
                return name
        raise PkaError(Status.ERR_UNSUPPORTED, f"no engine of this build executes {Op(op).name}")


# ---- what the driver knows about each engine (from doc/<engine>.md) -------------------------------

@dataclass(frozen=True)
class EngineProfile:
    name: str
    ops: frozenset[int]
    r: Callable[[int, dict[str, Any]], int] | None   # r of SLOT_W = 2^(2r) mod N (length, params)
    top_params: Callable[[dict[str, Any], int], dict[str, int]]   # engine params -> pka_top parameters
    max_len: Callable[[dict[str, Any], int], int]                 # the build's MaxLen for an operand size


def _pow2_len(bits: int) -> int:
    size = 256
    while size < bits:
        size *= 2
    if size > 4096:
        raise PkaError(Status.ERR_LENGTH, f"{bits} bits exceed pka_top's largest build (4096)")
    return size


def _mwr4_r(length: int, params: dict[str, Any]) -> int:
    from pka.model import mwr4
    return mwr4.geometry(length, mwr4.config(params)).r_bits


def _mwr4_top(params: dict[str, Any], bits: int) -> dict[str, int]:
    from pka.model import mwr4
    c = mwr4.config(params)
    return {"Mwr4Radix": c.radix, "Mwr4Ns": c.ns, "Mwr4W": c.w}


def _victor_top(params: dict[str, Any], bits: int) -> dict[str, int]:
    from pka.model import victor
    c = victor.config_from_params(params)
    return {"VictorK": c.k, "VictorDelta": c.delta, "VictorEps": c.eps}


def _hscm_r(length: int, params: dict[str, Any]) -> int:
    from pka.model import hscm
    w = int(params.get("w", 16))
    return int(hscm.Geometry(length, int(params.get("k", 0) or w), w).r_bits)


def _hscm_top(params: dict[str, Any], bits: int) -> dict[str, int]:
    w = int(params.get("w", 16))
    if int(params.get("k", 0) or w) != w:
        raise PkaError(Status.ERR_UNSUPPORTED, "pka_top builds hscm with k = w; digits of k = 2w are the core's "
                       "parameter (pka.rtl.hscm, --param k= on the core's own driver and benchmarks)")
    words = -(-(_hscm_len(params, bits) + 2 * w + 1) // 32)      # MONTMUL result: n + 2k + 1 bits
    return {"HscmW": w, "HscmPes": int(params.get("pes", 16)),
            "HscmMaxWindow": max(6, int(params.get("window", 0))), "MinSlotAw": (words - 1).bit_length()}


def _hscm_len(params: dict[str, Any], bits: int) -> int:
    return max(512, _pow2_len(bits))


def _rns_top(params: dict[str, Any], bits: int) -> dict[str, int]:
    w = int(params.get("w", 32))
    size = _pow2_len(bits)
    rowers = -(-(size + 8) // w)
    table = rowers * (12 + 2 * rowers)          # SLOT_X0: the per-rower constant table
    return {"RnsW": w, "MinSlotAw": max(0, (table - 1).bit_length())}


PROFILES: dict[str, EngineProfile] = {
    "example": EngineProfile("example", frozenset({Op.MODADD}), None, lambda p, b: {}, lambda p, b: _pow2_len(b)),
    "csa2": EngineProfile(
        "csa2", frozenset({Op.MODEXP, Op.MODEXP_CT, Op.MODMUL}), lambda k, p: k + 2,
        lambda p, b: {"Csa2ChunkW": 1 if p.get("variant", "paper") == "paper" else 32},
        lambda p, b: int(p.get("l", 0)) or _pow2_len(b)),
    "mwr4": EngineProfile("mwr4", frozenset({Op.MODEXP, Op.MODEXP_CT, Op.MODMUL, Op.MONTMUL}), _mwr4_r, _mwr4_top,
                          lambda p, b: _pow2_len(b)),
    "victor": EngineProfile("victor", frozenset({Op.MODEXP, Op.MODEXP_CT, Op.MODMUL}), None, _victor_top,
                            lambda p, b: _pow2_len(b)),
    "hscm": EngineProfile("hscm", frozenset({Op.MODEXP, Op.MODEXP_CT, Op.MODMUL, Op.MONTMUL, Op.MODRED, Op.MUL,
                                            Op.RSA_CRT}), _hscm_r, _hscm_top, _hscm_len),
    "rns": EngineProfile("rns", frozenset({Op.MODEXP, Op.MODEXP_CT, Op.MODMUL, Op.MONTMUL, Op.ECC_MUL}), None, _rns_top,
                         lambda p, b: _pow2_len(b)),
}
ENGINE_PRIO = ("hscm", "victor", "mwr4", "csa2", "rns", "example")   # = pka_top_pkg::EnginePrio


def profile(name: str) -> EngineProfile:
    try:
        return PROFILES[name]
    except KeyError:
        raise PkaError(Status.ERR_UNSUPPORTED, f"pka_top does not hold engine {name!r} (yet)") from None


# ---- the model backend's API through the bus ------------------------------------------------------

_SESSIONS: dict[Any, tuple[Any, Pka]] = {}
DEFAULT_BLINDING = True     # what session() sets (pka --blinding on|off)
_APPLIED: dict[Any, bool] = {}


def session(engine: str, params: dict[str, Any], bits: int) -> Pka:
    """A Pka on a cached pka_top build holding `engine` (one simulator process per build)."""
    from pka.rtl.top import engine_config
    return _session(engine_config(engine, params, bits))


def ecdsa_session(bits: int) -> Pka:
    """A Pka on the cached build that serves ECDSA_SIGN for `bits`-bit curves (pka.rtl.top.ecdsa_config:
    rns w = 32 and hscm, 16 PEs)."""
    from pka.rtl.top import ecdsa_config
    return _session(ecdsa_config(bits))


def _session(cfg: Any) -> Pka:
    from pka.rtl.top import TopSim

    entry = _SESSIONS.get(cfg)
    if entry is None or entry[0].proc.poll() is not None:
        sim = TopSim(cfg)
        entry = (sim, Pka(sim, blinding=DEFAULT_BLINDING))
        _SESSIONS[cfg] = entry
        _APPLIED[cfg] = DEFAULT_BLINDING
    if _APPLIED.get(cfg) != DEFAULT_BLINDING:
        # the default changed (pka --blinding): a setting made on the session itself stays otherwise
        entry[1].set_blinding(DEFAULT_BLINDING)
        _APPLIED[cfg] = DEFAULT_BLINDING
    return entry[1]


def close_all() -> None:
    for sim, _ in _SESSIONS.values():
        sim.close()
    _SESSIONS.clear()


import atexit  # noqa: E402

atexit.register(close_all)


class Backend:
    """modexp / modmul / modinv / rsa_crt / ecc_mul of one engine, through pka_top and its bus,
    with the signatures of the model backend (pka.model.<engine>)."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.profile = profile(engine)

    def modexp(self, base: int, exp: int, mod: int, params: dict[str, Any],
               progress: Callable[[int], None] | None = None) -> OpResult:
        p = session(self.engine, params, max(mod.bit_length(), exp.bit_length()))
        ct = bool(params.get("ladder", 0))
        # a secret exponent (MODEXP_CT) goes in with the modulus length: the count reveals no more
        elen = max(mod.bit_length(), exp.bit_length()) if ct else None
        return p.modexp(base, exp, mod, self.engine, ct=ct, progress=progress, elen=elen,
                        params=params)

    def modmul(self, a: int, b: int, mod: int, params: dict[str, Any],
               progress: Callable[[int], None] | None = None) -> OpResult:
        return session(self.engine, params, mod.bit_length()).modmul(a, b, mod, self.engine, progress, params)

    def modinv(self, a: int, mod: int, params: dict[str, Any],
               progress: Callable[[int], None] | None = None) -> OpResult:
        return session(self.engine, params, mod.bit_length()).modinv(a, mod, self.engine, progress, params)

    def rsa_crt(self, m: int, key: CrtKey, params: dict[str, Any],
                progress: Callable[[int], None] | None = None) -> OpResult:
        """m^d mod n: the engine's RSA_CRT when it has one (the key stays in write-only slots, its
        constants inside the accelerator, the result checked before release). An engine without
        RSA_CRT runs m^d mod n with MODEXP (d secret, e in SLOT_EPUB for the check): a CRT composed on
        the host would have to put p and q into the readable N slot, which the key-handling rules
        forbid (doc/security.md)."""
        if not 0 <= m < key.n:
            raise PkaError(Status.ERR_OPERAND_RANGE, "message out of range [0, n)")
        if Op.RSA_CRT in self.profile.ops:
            return session(self.engine, params, key.n.bit_length()).rsa_crt(m, key, self.engine, progress, params)
        p = session(self.engine, params, key.n.bit_length())
        r = p.modexp(m, key.d, key.n, self.engine, ct=bool(params.get("ladder", 0)), progress=progress,
                     params=params, e_pub=key.e)
        r.detail["path"] = "pka_top: MODEXP with d (the engine has no RSA_CRT), checked with e"
        return r

    def ecc_mul(self, curve: str, k: int, params: dict[str, Any], point: tuple[int, int] | None = None,
                progress: Callable[[int], None] | None = None) -> OpResult:
        """x(k * P) (P = the curve's generator by default) with the engine's ECC_MUL."""
        if Op.ECC_MUL not in self.profile.ops:
            raise PkaError(Status.ERR_UNSUPPORTED, f"engine {self.engine} has no ECC_MUL")
        from pka.model import rns
        bits = rns._curve(curve).p.bit_length()
        return session(self.engine, params, bits).ecc_mul_rns(curve, k, params, point, progress)


def backend(engine: str) -> Backend:
    """The bus backend of `engine` (what `pka ... --backend rtl` can call to go through pka_top)."""
    return Backend(engine)


# ---- `python -m pka.driver demo`: the main job through the accelerator ------------------------------

def demo(out: Callable[[str], None] = print) -> bool:
    """An RSA-2048 CRT signature (hscm) and a P-256 ECDH (rns) through pka_top's bus, both verified
    by `cryptography`, with progress and cycle counts. Returns whether both verified."""
    import logging
    import sys

    from cryptography.hazmat.primitives.asymmetric import ec

    from pka import rsa
    from pka.engines import ENGINES, parse_params

    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="pka: %(message)s")

    def progress(label: str) -> Callable[[int], None]:
        def tick(cycles: int) -> None:
            print(f"\r{label}: {cycles:,} cycles simulated", end="", file=sys.stderr, flush=True)
        return tick

    params = parse_params(ENGINES["hscm"], [])
    key = rsa.generate_key(2048)
    sig = rsa.sign(key, b"pka: open public-key accelerator", backend("hscm"), params, crt=True,
                   progress=progress("RSA-2048 CRT on hscm in pka_top"))
    print(file=sys.stderr)
    d = sig.detail
    out(f"RSA-2048 CRT signature through pka_top (hscm {params}): verified {sig.verified} (cryptography)")
    out(f"  cycles {sig.cycles:,} compute, {d.get('wall_cycles', 0):,} command to done, "
        f"{d.get('bus_cycles', 0):,} on the AXI4-Lite bus"
        + (" (first use of the key: its constants made inside the accelerator)" if d.get("key_setup") else ""))
    k = 0x5EED0F1E2D3C4B5A69788796A5B4C3D2E1F00112233445566778899AABBCCDD
    peer = ec.derive_private_key(0xC0FFEE, ec.SECP256R1()).public_key().public_numbers()
    rparams = parse_params(ENGINES["rns"], [])
    res = backend("rns").ecc_mul("p256", k, rparams, (peer.x, peer.y), progress("P-256 ECDH on rns in pka_top"))
    print(file=sys.stderr)
    mine = ec.derive_private_key(k, ec.SECP256R1())
    peer_key = ec.EllipticCurvePublicNumbers(peer.x, peer.y, ec.SECP256R1()).public_key()
    ok = int.from_bytes(mine.exchange(ec.ECDH(), peer_key), "big") == res.result
    out(f"P-256 ECDH through pka_top (rns {rparams}): verified {ok} (cryptography)")
    out(f"  cycles {res.cycles:,} compute, {res.detail['wall_cycles']:,} command to done, "
        f"{res.detail['bus_cycles']:,} on the AXI4-Lite bus")
    return bool(sig.verified and ok)


if __name__ == "__main__":
    import sys as _sys

    if _sys.argv[1:] == ["demo"]:
        _sys.exit(0 if demo() else 1)
    print("usage: python -m pka.driver demo", file=_sys.stderr)
    _sys.exit(2)
