"""The interface every game of core offers: what the service and the AI rely on."""

from typing import Any, Protocol

Move = dict[str, Any]


class GameState(Protocol):
    """One game in progress. Moves are JSON-ready dicts; actions are their fixed int ids."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats that may act now (several during a simultaneous phase)."""

    def legal_moves(self, seat: int) -> list[Move]: ...
    def verify_move(self, seat: int, move: Move) -> int:
        """The action id of move, or core.IllegalMove saying why it is refused."""
    def can_apply(self, seat: int, move: Move) -> bool: ...
    def apply(self, seat: int, move: Move) -> None: ...
    def observed_by(self, seat: int) -> dict[str, Any] | None:
        """What seat is shown now that no later view keeps (e.g. a revealed hand), to log
        with its next move so that it (and its AI) can read it back; None if nothing."""
    def visible_move(self, actor: int, move: Move, viewer: int | None) -> Move:
        """A logged move of actor as viewer (None: a spectator) may see it in this state."""
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What seat (None: a spectator) may know, and nothing else."""
    def result(self) -> dict[str, Any] | None:
        """Scores, winners and ranking once over; None before."""
    def forfeit_result(self, absent: list[int]) -> dict[str, Any]:
        """The result (as result() gives it) if the game ended now because the seats in
        absent walked away: they rank last, the others by the game's own scoring so far."""
    def snapshot(self) -> dict[str, Any]:
        """The complete position, hidden cards included: for tools, never for players."""
    def clone(self) -> "GameState": ...

    # For learning code (needs NumPy, the `rl` extra; layouts in docs/rl.md).
    def observation(self, seat: int, history: list[dict[str, Any]] | None = None) -> Any:
        """What seat may know as a flat float32 array; history (the log as the seat saw
        it, as for core.ai.suggest) adds what the seat remembers beyond its view."""
    def action_mask(self, seat: int) -> Any:
        """A uint8 array over the fixed action ids: 1 for each legal action of seat."""
    def to_bytes(self) -> bytes: ...

    # The integer path for search code.
    def legal_actions(self, seat: int) -> list[int]: ...
    def apply_action(self, seat: int, action: int) -> None: ...
    def move_of(self, action: int) -> Move: ...
    def action_of(self, move: Move) -> int: ...
    def playout(self, seed: int | None = None) -> int:
        """Random moves to the end, in C; returns the number of moves made."""
