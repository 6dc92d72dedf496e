"""The limits every game obeys, however it starts: POST /v1/games, a challenge, a series,
the queue or a rematch. `Sessions.new_state`, which each of them goes through before
anything is kept, checks them, so that no route can bend them (issue 30: challenges and
series took one-second clocks the server refuses to POST /v1/games).

A limit the client chose is refused with a message that says what is allowed; what the
server chooses itself (the queue's clock, the AI level that fills a queue's seat) it
chooses within the limits.
"""

from dataclasses import dataclass
from typing import ClassVar

import core.ai
from service.config import Settings
from service.games.meta import Clock
from service.games.requests import Budget
from service.http.errors import ApiError


class BudgetRefused(ApiError):
    """A thinking budget outside the server's limits, or not exactly one of the two; the
    message says what is allowed."""
    status = 422
    type = "budget-refused"
    when = ", an AI budget the schema does not allow (`budget-refused`)"
    when_order = 30
    sentence = "The server refused this AI budget."


class ClockRefused(ApiError):
    """A turn clock outside this server's limits: a game the server will not make, as
    POST /v1/games has always answered it (the document describes invalid-game with
    service/games/sessions.py's InvalidGame, which this module cannot import)."""
    status = 422
    type = "invalid-game"


@dataclass(frozen=True)
class GameLimits:
    turn_seconds_min: int = Settings.turn_seconds_min
    ai_max_iterations: int = Settings.ai_max_iterations
    ai_max_time_ms: int = Settings.ai_max_time_ms
    TURN_SECONDS_MAX: ClassVar[int] = 86_400

    @classmethod
    def of(cls, settings: Settings) -> "GameLimits":
        return cls(settings.turn_seconds_min, settings.ai_max_iterations,
                   settings.ai_max_time_ms)

    def levels(self) -> list[int]:
        """The AI levels this server plays: those whose search fits its iteration cap."""
        return [level for level, budget in sorted(core.ai.LEVELS.items())
                if budget["iterations"] <= self.ai_max_iterations]

    def clock(self, asked: int | None, default: int) -> int:
        """The turn clock asked for, or the default within this server's limits."""
        return self.clock_within(default) if asked is None else asked

    def clock_within(self, turn_seconds: int) -> int:
        """A clock the server picks itself, moved within the limits."""
        return max(self.turn_seconds_min, min(turn_seconds, self.TURN_SECONDS_MAX))

    def check(self, clock: Clock | None, ai: list[Budget | None] | None) -> None:
        """ClockRefused or BudgetRefused unless the clock and every AI seat's budget are
        within the limits."""
        if clock is not None and not \
                self.turn_seconds_min <= clock.turn_seconds <= self.TURN_SECONDS_MAX:
            raise ClockRefused(f"turn_seconds is {self.turn_seconds_min} to"
                               f" {self.TURN_SECONDS_MAX:,} on this server, got"
                               f" {clock.turn_seconds}")
        for budget in ai or ():
            if budget is not None:
                self._check_budget(budget)

    def _check_budget(self, budget: Budget) -> None:
        levels, cap = self.levels(), self.ai_max_iterations
        if budget.level is not None and budget.level not in core.ai.LEVELS:
            raise BudgetRefused(f"there is no AI level {budget.level}: levels"
                                f" are {min(core.ai.LEVELS)} to {max(core.ai.LEVELS)}")
        if budget.level is not None and budget.level not in levels:
            allowed = f"levels {levels[0]} to {levels[-1]} play here" if levels else \
                "no level plays here"
            raise BudgetRefused(f"AI level {budget.level} (ai-{budget.level})"
                                f" is over this server's AI_MAX_ITERATIONS of {cap:,}: {allowed}")
        if budget.iterations is not None and budget.iterations > cap:
            raise BudgetRefused(f"iterations is capped at {cap:,} on this"
                                f" server, got {budget.iterations:,}")
        if budget.time_ms is not None and budget.time_ms > self.ai_max_time_ms:
            raise BudgetRefused(f"time_ms is capped at {self.ai_max_time_ms:,}"
                                f" on this server, got {budget.time_ms:,}")
