"""The server's AI: move suggestions for a seat, and the seats the server plays itself.

The search (core.ai) releases the GIL, so it runs in a worker thread while the event loop
serves other requests. It sees only what its seat may: the seat's own state through the
game's determinizer, and the move log as that seat may see it.
"""

import asyncio
import logging
import secrets
from functools import partial
from typing import Any

import anyio

import core
import core.ai
from service.config import Settings
from service.schemas import Budget, CreateGame, SeatSpec
from service.sessions import InvalidGame, Session, Sessions

log = logging.getLogger("service.ai")


class BudgetRefused(Exception):
    """A thinking budget outside the server's limits, or not exactly one of the two."""


class NotYourTurn(Exception):
    """A suggestion asked for a seat that has nothing to decide now."""


class Robots:
    def __init__(self, sessions: Sessions, settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings
        self._background: dict[str, asyncio.Task] = {}  # game id -> its AI turns

    # -- budgets ------------------------------------------------------------------

    def checked(self, budget: Budget | SeatSpec) -> Budget:
        """The budget if exactly one of level/iterations/time_ms is given within the limits."""
        limits = self.settings
        given = [value for value in (budget.level, budget.iterations, budget.time_ms)
                 if value is not None]
        if len(given) != 1:
            raise BudgetRefused("give exactly one of level, iterations and time_ms")
        if budget.level is not None:
            try:
                iterations = core.ai.level_budget(budget.level)["iterations"]
            except ValueError as error:
                raise BudgetRefused(str(error)) from None
            if iterations > limits.ai_max_iterations:
                raise BudgetRefused(f"level {budget.level} needs {iterations:,} iterations,"
                                    f" over this server's cap of {limits.ai_max_iterations:,}")
            return Budget(level=budget.level)
        if budget.iterations is not None and budget.iterations > limits.ai_max_iterations:
            raise BudgetRefused(f"iterations is capped at {limits.ai_max_iterations:,} on this"
                                f" server, got {budget.iterations:,}")
        if budget.time_ms is not None and budget.time_ms > limits.ai_max_time_ms:
            raise BudgetRefused(f"time_ms is capped at {limits.ai_max_time_ms:,} on this server,"
                                f" got {budget.time_ms:,}")
        return Budget(budget.iterations, budget.time_ms)

    def seats_of(self, request: CreateGame) -> list[Budget | None] | None:
        """Each seat's AI budget (None: a human) from a creation request."""
        if request.seats is None:
            return None
        if len(request.seats) != request.players:
            raise InvalidGame(f"seats lists one entry per player: {request.players} expected,"
                              f" got {len(request.seats)}")
        if any(seat.type == "ai" for seat in request.seats) and not core.ai.supports(request.game):
            raise InvalidGame(f"no AI plays {request.game!r} yet")
        return [self.checked(seat) if seat.type == "ai" else None for seat in request.seats]

    # -- thinking -------------------------------------------------------------------

    def capped(self, budget: Budget) -> Budget:
        """An AI seat's budget within today's limits (they may have shrunk since creation)."""
        limits = self.settings
        if budget.level is not None:   # a level is a fixed budget: over a shrunk cap, the cap
            iterations = core.ai.level_budget(budget.level)["iterations"]
            return budget if iterations <= limits.ai_max_iterations else Budget(
                iterations=limits.ai_max_iterations)
        return Budget(None if budget.iterations is None else
                      min(budget.iterations, limits.ai_max_iterations),
                      None if budget.time_ms is None else
                      min(budget.time_ms, limits.ai_max_time_ms))

    async def suggest(self, session: Session, seat: int, budget: Budget) -> dict[str, Any]:
        if not core.ai.supports(session.meta.game):
            raise InvalidGame(f"no AI plays {session.meta.game!r} yet")
        budget = self.checked(budget)
        if seat not in session.state.to_move:
            raise NotYourTurn(f"seat {seat} has nothing to decide now; seats to move:"
                              f" {list(session.state.to_move)}")
        history = (await self.sessions.history(session, seat))["entries"]
        search = partial(core.ai.suggest, session.state.clone(), seat,
                         level=budget.level, iterations=budget.iterations,
                         time_ms=budget.time_ms,
                         seed=secrets.randbits(63), history=history)
        return await anyio.to_thread.run_sync(search)

    # -- AI seats -------------------------------------------------------------------

    async def play_turns(self, game_id: str) -> None:
        """Plays AI seats' moves until a human must act or the game is over."""
        while True:
            session = await self.sessions.load(game_id)
            robots = [s for s in session.state.to_move if session.meta.is_ai(s)]
            if not robots:
                return
            seat = robots[0]
            choice = await self.suggest(session, seat, self.capped(session.meta.ai[seat]))
            observed = session.state.observed_by(seat)
            session.state.apply(seat, choice["move"])
            await self.sessions.commit(session, seat, choice["move"], observed)  # lost: reload

    def play_in_background(self, game_id: str) -> None:
        """Plays AI turns without holding a request open (at most one task a game here)."""
        if game_id in self._background:
            return
        task = asyncio.get_running_loop().create_task(self._play_quietly(game_id))
        self._background[game_id] = task
        task.add_done_callback(lambda _: self._background.pop(game_id, None))

    def resume_if_stalled(self, session: Session) -> None:
        """Restarts the AI's turns of a game left with an AI seat to move (its worker died
        between a move and the AI's answer): any request that reads the game revives it."""
        meta = session.meta
        if meta.ai is not None and any(meta.is_ai(seat) for seat in session.state.to_move):
            self.play_in_background(session.game_id)

    async def _play_quietly(self, game_id: str) -> None:
        try:
            await self.play_turns(game_id)
        except Exception:  # a background game has nobody to answer: log it
            log.exception("AI game %s stopped", game_id)

    async def close(self) -> None:
        for task in list(self._background.values()):
            task.cancel()
