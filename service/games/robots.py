"""The server's AI: move suggestions for a seat, and the seats the server plays itself:
AI seats, and webhook bots' seats, whose moves the bot answers over HTTP (service.webhooks).

The search (core.ai) releases the GIL, so it runs in a worker thread while the event loop
serves other requests. It sees only what its seat may: the seat's own state through the
game's determinizer, and the move log as that seat may see it.
"""

import asyncio
import logging
import secrets
import time
from functools import partial
from typing import Any, Protocol

import anyio
import msgspec

import core
import core.ai
from service.config import Settings
from service.games.limits import BudgetRefused
from service.games.meta import STAND_IN
from service.games.requests import Budget, CreateGame, SeatSpec
from service.games.sessions import MAX_COMMIT_ATTEMPTS, InvalidGame, Session, Sessions
from service.http.errors import ApiError
from service.lobby.deadlines import Deadlines
from service.replica import tracing

log = logging.getLogger("service.ai")

# The AI's move for a seat whose clock ran out, or whose webhook failed: quick and sound,
# as for a resigned seat.
TIMEOUT_BUDGET = STAND_IN


class SeatCallers(Protocol):
    """Who asks webhook bots their moves (service.webhooks.driver.WebhookDriver)."""
    async def ask(self, session: Session, seat: int) -> dict[str, Any] | str | None:
        """The bot's move, legal now; a failure's name; or None if another replica is
        asking this decision."""


class NotYourTurn(ApiError):
    """A suggestion asked for a seat that has nothing to decide now."""
    status = 409
    type = "not-your-turn"
    when = ", the seat has nothing to decide now (`not-your-turn`)"
    when_order = 20
    sentence = "You have nothing to decide now."


class HintsOff(ApiError):
    """A suggestion asked for in a game between people, where hints are off."""
    status = 409
    type = "hints-off"
    when = "; a suggestion asked in a game where hints are off (`hints-off`)"
    when_order = 130
    sentence = "Hints are off in this game: each player plays on their own."


class AIBusy(ApiError):
    """Every search slot for suggestions of this worker is taken: retry shortly."""
    status = 503
    type = "ai-busy"
    when = ", the AI is busy with other suggestions (`ai-busy`)"
    when_order = 30
    sentence = "The AI is busy with other hints: try again in a moment."

    def headers(self) -> dict[str, str]:
        return {"Retry-After": "1"}


class Robots:
    def __init__(self, sessions: Sessions, deadlines: Deadlines, settings: Settings,
                 webhooks: SeatCallers | None = None) -> None:
        self.sessions = sessions
        self.deadlines = deadlines  # where a stopping replica hands its AI games over
        self.settings = settings
        self.webhooks = webhooks    # asks webhook seats' bots (None: they fall to the clock)
        self._kicks: set[asyncio.Task] = set()
        self._drivers: dict[str, asyncio.Task] = {}  # game id -> its AI seats' driver
        self._suggesting = 0  # suggestions searching now (AI seats' moves are not capped)

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
        for index, seat in enumerate(request.seats):
            if seat.type != "ai" and (seat.level, seat.iterations, seat.time_ms) != (None,) * 3:
                raise InvalidGame(f"seats[{index}] is not an AI seat ({seat.type}): level,"
                                  " iterations and time_ms are an AI seat's budget")
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

    async def suggest_for_client(self, session: Session, seat: int,
                                 budget: Budget) -> dict[str, Any]:
        """A suggestion asked for over HTTP: at most AI_MAX_CONCURRENT search at once per
        worker, and one more is refused at once (AIBusy), never queued, so suggestions
        cannot take the workers' time from moves."""
        if self._suggesting >= self.settings.ai_max_concurrent:
            raise AIBusy(f"the AI is answering {self._suggesting} suggestions on this worker,"
                         " its limit; retry in a moment")
        self._suggesting += 1
        try:
            return await self.suggest(session, seat, budget)
        finally:
            self._suggesting -= 1

    async def suggest(self, session: Session, seat: int, budget: Budget) -> dict[str, Any]:
        if not core.ai.supports(session.meta.game):
            raise InvalidGame(f"no AI plays {session.meta.game!r} yet")
        budget = self.checked(budget)
        status = session.status
        if status != "active":
            raise NotYourTurn(f"seat {seat} has nothing to decide now: the game is {status}")
        if seat not in session.state.to_move:
            raise NotYourTurn(f"seat {seat} has nothing to decide now; seats to move:"
                              f" {list(session.state.to_move)}")
        history = [entry for entry in (await self.sessions.history(session, seat))["entries"]
                   if "move" in entry]  # joins, leaves and the like tell the AI nothing
        search = partial(core.ai.suggest, session.state.clone(), seat,
                         level=budget.level, iterations=budget.iterations,
                         time_ms=budget.time_ms,
                         seed=secrets.randbits(63), history=history)
        return await anyio.to_thread.run_sync(search)

    # -- AI seats -------------------------------------------------------------------
    #
    # One driver plays a game's AI seats on this replica: the request that moved, a read
    # that found an AI seat stalled, a clock and a stopping replica's handover all join
    # it rather than start a second. Another replica may drive the same game meanwhile
    # (a read there heals what looks stalled); each move is then searched at the version
    # its driver loaded and committed only if the game is still there, so the loser of
    # a race searches again at the new version and nothing is played twice.

    async def play_turns(self, game_id: str) -> None:
        """Plays AI seats' moves until a human must act or the game is over, with this
        replica's driver of the game. Never raises: the driver logs what stops it (the
        caller's own change is committed by then, and a read will resume the game)."""
        while True:
            driver = self._drivers.get(game_id)
            if driver is None or driver.done():
                await asyncio.shield(self._drive(game_id))
                return
            # That driver may have looked for an AI seat to move before the caller's
            # change was committed: once it is done, look again with a driver of our own.
            await asyncio.shield(driver)

    def play_in_background(self, game_id: str) -> None:
        """Plays AI turns without holding a request open (at most one driver a game here)."""
        driver = self._drivers.get(game_id)
        if driver is None or driver.done():
            self._drive(game_id)

    def play_soon(self, game_id: str) -> None:
        """play_turns without waiting for it: after a change that may have made a webhook
        seat to move, whose bot a request should not wait for."""
        task = asyncio.get_running_loop().create_task(self.play_turns(game_id))
        self._kicks.add(task)
        task.add_done_callback(self._kicks.discard)

    def resume_if_stalled(self, session: Session) -> None:
        """Restarts the AI's turns of a game left with an AI seat to move (its worker died
        between a move and the AI's answer): any request that reads the game revives it."""
        if session.meta.has_robots() and self.robot_to_move(session) is not None:
            self.play_in_background(session.game_id)

    def _drive(self, game_id: str) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(self._play_quietly(game_id))
        self._drivers[game_id] = task
        task.add_done_callback(partial(self._forget, game_id))
        return task

    def _forget(self, game_id: str, task: asyncio.Task) -> None:
        if self._drivers.get(game_id) is task:  # not a newer driver started meanwhile
            del self._drivers[game_id]

    async def _play_quietly(self, game_id: str) -> None:
        try:
            await self._play_all(game_id)
        except Exception:  # a driver has nobody to answer: log it
            log.exception("AI game %s stopped", game_id)

    async def _play_all(self, game_id: str) -> None:
        while True:
            session = await self.sessions.load(game_id)
            seat = self.robot_to_move(session)
            if seat is None:
                return
            if session.meta.played_by_ai(seat):
                await self.play_for(session, seat, self.capped(session.meta.robot_budget(seat)))
            elif not await self.answer_webhook(session, seat):
                # Another replica asks the bot. Should it die, the seat's clock drives the
                # seat again: armed here, since a handover may have taken its entry.
                deadline = session.meta.earliest_deadline()
                if deadline is not None:
                    await self.deadlines.arm(game_id, session.record.version, deadline)
                return

    @staticmethod
    def robot_to_move(session: Session) -> int | None:
        """A seat the server plays (an AI's, a resigned one, a webhook bot's) that must act
        now in an active game, if any."""
        if session.status != "active":
            return None
        return next((seat for seat in session.state.to_move
                     if session.meta.played_by_server(seat)), None)

    async def answer_webhook(self, session: Session, seat: int) -> bool:
        """Commits the move seat's bot answers, or its clock's policy if the call failed;
        False if another replica is asking the bot."""
        answer = "no-webhook" if self.webhooks is None else \
            await self.webhooks.ask(session, seat)
        if answer is None:
            return False
        if isinstance(answer, str):
            await self.fall_to_policy(session, seat, answer)
            return True
        simultaneous = len(session.state.to_move) > 1
        for _ in range(MAX_COMMIT_ATTEMPTS):
            entry = self.sessions.move_entry(seat, answer, session)
            if await self.sessions.commit(self.sessions.moved(session, seat, answer), entry):
                return True
            # A simultaneous decision does not depend on the others': commit the same
            # answer on top of theirs while it stays this seat's to make (as a move
            # posted without expected_version). Otherwise the loop asks again.
            session = await self.sessions.load(session.game_id)
            if not simultaneous or session.status != "active" or \
                    seat not in session.state.to_move:
                return True
            try:
                session.state.clone().apply(seat, answer)
            except core.IllegalMove:
                return True
        return True

    async def fall_to_policy(self, session: Session, seat: int, failure: str) -> None:
        """What the seat's clock does when it runs out, for a webhook that failed: the
        forfeit, or the AI's move (the policy of a game without a clock)."""
        clock = session.meta.clock
        if clock is not None and clock.on_timeout == "forfeit":
            await self.forfeit(session, [seat], webhook=failure)
        else:
            await self.play_for(session, seat, TIMEOUT_BUDGET, kind="timeout", policy="ai",
                                webhook=failure)

    async def forfeit(self, session: Session, seats: list[int], **logged: object) -> bool:
        """Ends the game with seats forfeited (False if it moved on meanwhile)."""
        ended = msgspec.structs.replace(session.meta, forfeited=seats)
        pending = self.sessions.next_version(session, session.state, None, ended)
        return await self.sessions.commit(pending, {"seat": seats[0], "kind": "forfeit",
                                                    "forfeited": seats, **logged})

    async def play_for(self, session: Session, seat: int, budget: Budget,
                       kind: str = "move", **logged: object) -> bool:
        """Commits the AI's move for seat (False if the game moved on meanwhile)."""
        with tracing.span("ai.turn", session.game_id, seat=seat, level=budget.level or 0,
                          kind=kind):
            choice = await self.suggest(session, seat, budget)
            pending = self.sessions.moved(session, seat, choice["move"])
            entry = self.sessions.move_entry(seat, choice["move"], session, kind)
            return await self.sessions.commit(pending, {**entry, **logged})

    async def close(self) -> None:
        """Stops the AI turns played here and hands their games to the other replicas
        (through the turn clocks' index: an entry due at once)."""
        for kick in list(self._kicks):
            kick.cancel()
        games = list(self._drivers.items())
        for _, task in games:
            task.cancel()
        for game_id, task in games:
            await asyncio.gather(task, return_exceptions=True)
            try:
                session = await self.sessions.load(game_id)
                await self.deadlines.arm(game_id, session.record.version, time.time())
            except Exception:  # the store is going too: the next read resumes the game
                log.warning("could not hand AI game %s over", game_id)
