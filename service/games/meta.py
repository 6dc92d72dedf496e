"""What the service keeps beside a game's state: seats, names, tokens' hashes, clocks.

A game's metadata changes with the game (a join, a deadline, a rematch), so it is part of
every committed version's record; it holds nothing a player may not see but the hashes
of the seats' tokens, which never leave the server.
"""

import time
from typing import Literal

import msgspec

from service.games.budget import Budget
from service.players.ratings.model import ai_player, level_of

SeatType = Literal["human", "ai", "open"]
Status = Literal["waiting", "active", "over"]


HINTS_OFF = {
    "people": "the AI's suggestions are off in a game between people (it was created with"
              " open seats): each player plays on their own",
    "rated": "the AI's suggestions are off in a rated game: a strong AI's advice would count"
             " in the seat's rating",
    "arena": "the AI's suggestions are off in a game of the arena (a challenge's or a"
             " series'): each contestant plays on its own",
}


# The AI's budget for a resigned seat it plays on: the turn clock's, quick and sound.
STAND_IN = Budget(iterations=300)


class Clock(msgspec.Struct, frozen=True):
    """A turn clock: each decision within turn_seconds, else on_timeout."""
    turn_seconds: int
    on_timeout: Literal["ai", "forfeit"]


class RematchOffer(msgspec.Struct, frozen=True):
    """A rematch offered after the end: the seats that want it (the offering seat first)
    and those that declined it. The next game is made once every person's seat wants it;
    a decline closes the offer, and any seat may offer again."""
    accepted: list[int]
    declined: list[int]


class Meta(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    players: int
    seeded: bool
    token_hashes: list[str | None]         # None for an AI seat and an open seat
    created: float
    ai: list[Budget | None] | None = None  # each AI seat's thinking budget
    names: list[str | None] | None = None  # display names, shown to everyone
    open_seats: list[int] = []             # seats nobody has taken yet
    listed: bool = False                   # in the waiting list while seats are open
    # Spectators may find it in the list of live games (GET /v1/games?status=active): a
    # game its creator listed for strangers, a rated queue's game, and their rematches.
    # Any game can be watched by its link; only these are shown to passers-by.
    watchable: bool = False
    # The AI's suggestions are offered to the seats: not in a game between people (one
    # created with open seats, and its rematches), where a hint would be a strong player
    # whispering to one side (docs/api.md, "Fair play").
    hints: bool = True
    # Why they are off, when they are: "people" (created with open seats), "rated" (a
    # strong AI's advice would count in the ratings) or "arena" (a challenge's or a
    # series' game, whose contestants play on their own). Games made before this was
    # kept have none: hints_off_reason() tells from the rest.
    hints_off: Literal["people", "rated", "arena"] | None = None
    options: dict | None = None            # creation options, for a rematch
    clock: Clock | None = None
    deadlines: list[float | None] | None = None  # per seat, epoch seconds
    forfeited: list[int] = []              # seats whose clock ended the game
    # Seats whose player resigned: each ranks last; the AI plays it on (STAND_IN) while
    # other people play, and resign_ended says a resignation ended the game at once
    # (docs/rules.md, "Resigning").
    resigned: list[int] = []
    resign_ended: bool = False
    rematch: str | None = None             # the next game's id
    rematch_offer: RematchOffer | None = None  # the seats' answers, until the next game
    player_ids: list[str | None] | None = None  # the player each seat is bound to
    rated: bool = True                     # rated if eligible (is_rated); false: casual
    # Seats whose player, when the game was made, was a bot with a webhook: the server
    # asks it each of their decisions (service.webhooks.driver), as it plays AI seats.
    webhooks: list[int] = []

    def is_ai(self, seat: int) -> bool:
        return self.ai is not None and self.ai[seat] is not None

    def played_by_server(self, seat: int) -> bool:
        """An AI seat, a resigned one the AI plays on, or a webhook bot's: the server makes
        its moves (service.games.robots)."""
        return self.played_by_ai(seat) or seat in self.webhooks

    def played_by_ai(self, seat: int) -> bool:
        """An AI seat, or a resigned one the AI plays on (even if its bot has a webhook)."""
        return self.is_ai(seat) or seat in self.resigned

    def has_robots(self) -> bool:
        """Whether the server plays a seat of this game (an AI's, a resigned one, a
        webhook bot's)."""
        return self.ai is not None or bool(self.resigned) or bool(self.webhooks)

    def robot_budget(self, seat: int) -> Budget:
        """How the server thinks for seat: an AI seat's own budget, else a stand-in's."""
        budget = self.ai[seat] if self.ai is not None else None
        return STAND_IN if budget is None else budget

    def people(self) -> list[int]:
        """The seats a person (or a bot) plays, the AI's excepted."""
        return [seat for seat in range(self.players) if not self.is_ai(seat)]

    def seat_type(self, seat: int) -> SeatType:
        if seat in self.open_seats:
            return "open"
        return "ai" if self.is_ai(seat) else "human"

    def player(self, seat: int) -> str | None:
        """The player seat is bound to: a person's or a bot's id, or for an AI seat playing
        at a strength level, that level's (service.players.ratings.ai_player)."""
        if self.player_ids is not None and self.player_ids[seat] is not None:
            return self.player_ids[seat]
        budget = self.ai[seat] if self.ai is not None else None
        return None if budget is None or budget.level is None else ai_player(budget.level)

    def is_rated(self) -> bool:
        """Whether the game's result updates ratings: asked for (the default), no seed the
        creator chose (whoever chose it knows the deal), every seat a player or an AI
        level, no person or bot in two seats, and not abandoned by every seat (a game
        nobody finished says nothing of anyone's strength)."""
        seated = [self.player(seat) for seat in range(self.players)]
        people = [player for player in seated if player and level_of(player) is None]
        return self.rated and not self.seeded and not self.open_seats and \
            None not in seated and len(set(people)) == len(people) and \
            len(self.forfeited) < self.players

    def hints_off_reason(self) -> str:
        """Why this game's seats get no suggestion, in words (hints are off)."""
        reason = self.hints_off or ("rated" if self.is_rated() else "people")
        return HINTS_OFF[reason]

    def name(self, seat: int) -> str | None:
        return None if self.names is None else self.names[seat]

    def deadline(self, seat: int) -> float | None:
        return None if self.deadlines is None else self.deadlines[seat]

    def status(self, over: bool) -> Status:
        """over: whether the core says the game is over."""
        if self.open_seats:
            return "waiting"
        return "over" if over or self.forfeited or self.resign_ended else "active"

    def seats(self) -> list[dict]:
        return [{"seat": seat, "type": self.seat_type(seat), "name": self.name(seat),
                 "player": self.player(seat), "deadline": self.deadline(seat),
                 "resigned": seat in self.resigned}
                for seat in range(self.players)]

    def with_deadlines(self, to_move: tuple[int, ...], mover: int | None,
                       now: float | None = None) -> "Meta":
        """The deadlines after a change by mover (None: a join or the start): each seat to
        move keeps its running deadline, but the mover and a seat newly to move start a
        fresh turn; seats not to move have none."""
        if self.clock is None or self.open_seats:
            return self
        if self.forfeited or self.resign_ended:
            return msgspec.structs.replace(self, deadlines=None)
        now = time.time() if now is None else now
        fresh = now + self.clock.turn_seconds
        deadlines = [None] * self.players
        for seat in to_move:
            running = self.deadline(seat)
            deadlines[seat] = running if running is not None and seat != mover else fresh
        return msgspec.structs.replace(self, deadlines=deadlines)

    def earliest_deadline(self) -> float | None:
        running = [d for d in self.deadlines or () if d is not None]
        return min(running) if running and not (self.forfeited or self.resign_ended) else None
