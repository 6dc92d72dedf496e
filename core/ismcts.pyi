"""Typing stub of the compiled module core/ismcts.pyx (game-agnostic ISMCTS and flat MC)."""

from typing import Any

ALGORITHMS: tuple[str, ...]
PLAYOUTS: tuple[str, ...]
REWARDS: tuple[str, ...]

def search(vtable: object, state: bytes, observer: int, info: bytes | None = None, *,
           iterations: int = 0, time_ms: float = 0, algorithm: str = "ismcts",
           exploration: float = 0.7, seed: int = 0, threads: int = 1,
           playout: str = "random", reward: str = "win", max_moves: int = 0) -> dict[str, Any]: ...
def evaluate(vtable: object, state: bytes, observer: int, info: bytes | None = None, *,
             iterations: int, playout: str = "policy", seed: int = 0) -> list[float]: ...
def margins(vtable: object, state: bytes, *, iterations: int, playout: str = "policy",
            seed: int = 0) -> list[list[float]]: ...
