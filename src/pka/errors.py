"""Errors shared by models, drivers and the CLI.

The numeric codes are the hardware status codes (pka.regs.Status, generated from data/pka.rdl like
pka_pkg::status_e), so a model error and an RTL error for the same bad input carry the same code.
"""

from __future__ import annotations

from pka.regs import Status

__all__ = ["PkaError", "Status", "check_odd_modulus", "check_range"]


class PkaError(ValueError):
    """Bad input. `status` is the hardware status code the RTL gives for the same input."""

    def __init__(self, status: Status, message: str) -> None:
        super().__init__(message)
        self.status = status


def check_odd_modulus(mod: int, what: str = "modulus") -> None:
    if mod <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} must be positive")
    if mod % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, f"{what} must be odd")


def check_range(value: int, bound: int, what: str) -> None:
    """0 <= value < bound, else ERR_OPERAND_RANGE."""
    if value < 0 or value >= bound:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} out of range [0, {hex(bound)})")
