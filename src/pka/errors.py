"""Errors shared by models, drivers and the CLI.

The numeric codes are the hardware status codes of rtl/common/pka_pkg.sv, so a model error and an
RTL error for the same bad input carry the same code.
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    """Status codes, identical to pka_pkg::status_e."""

    OK = 0
    ERR_EVEN_MODULUS = 1
    ERR_LENGTH = 2
    ERR_OPERAND_RANGE = 3
    ERR_OPCODE = 4
    ERR_BUSY = 5
    ERR_NOT_ON_CURVE = 6
    ERR_NO_INVERSE = 7
    ERR_UNSUPPORTED = 8
    ERR_PARAM = 9  # host side only: an engine parameter the engine does not support


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
