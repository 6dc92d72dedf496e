"""Typing stub of the compiled module core/ai_cupcrab.pyx (Cup the Crab's search vtable)."""

from typing import Any

NAME: str
INFO_SIZE: int
ALL_KINDS: int

def vtable() -> object: ...
def raw_state(state: Any) -> bytes: ...
def info(hand_allow: list[int] | None = None) -> bytes | None: ...
