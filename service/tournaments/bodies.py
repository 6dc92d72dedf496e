"""Bodies of the tournaments (docs/arena.md, "Tournaments")."""

from typing import Annotated, Literal

import msgspec

from service.arena.bodies import Cell, ContestantId, TableOptions, TurnSeconds
from service.arena.estimates import Judge
from service.games.requests import GameName

TOURNAMENT_TURN_SECONDS = 10
Format = Literal["swiss", "round-robin"]
# paired: each pairing's series figures from its ranks and points; judged: and the judge's
# (AIVAT) corrected and fitted estimates, seconds of CPU a game (docs/arena.md)
Estimates = Literal["paired", "judged"]


class TournamentRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/tournaments: a `format` tournament of `game` at tables of `players`.
    Swiss: `rounds` rounds (5 if absent); round robin: every pairing once, its rounds
    follow from its entrants (leave `rounds` out). Each table plays `deals` deals, with
    `duplicate` once per rotation of its seats (the same cards), else one game a deal.
    The entry window closes `entry_seconds` after this request (or when its owner starts
    it). `entrants`: AI levels and the key's own player, entered now; any other player
    enters with its own key. `estimates`: each pairing's verdict as a series gives it,
    `paired` (its games' ranks and points) or `judged` (and the judge's variance-reduced
    estimates: each game judged, seconds of CPU a game)."""
    game: GameName
    format: Format
    players: Annotated[int, msgspec.Meta(ge=2, le=5)] = 2
    rounds: Annotated[int, msgspec.Meta(ge=1, le=30)] | None = None
    deals: Annotated[int, msgspec.Meta(ge=1, le=50)] = 1
    duplicate: bool = True
    turn_seconds: TurnSeconds = None
    options: TableOptions | None = None
    entry_seconds: Annotated[int, msgspec.Meta(ge=0, le=7 * 86_400)] = 300
    entrants: Annotated[list[ContestantId], msgspec.Meta(max_length=64)] = []
    estimates: Estimates = "paired"


class EntrantBody(msgspec.Struct, kw_only=True):
    id: str
    name: str
    kind: Literal["human", "bot", "ai"]


class TableBody(msgspec.Struct, kw_only=True):
    """A table of the round being played: its entrants (in the seat order of its first
    game), a bye's one entrant, its games' ids, whether its games are all over."""
    table: int
    entrants: list[str]
    bye: bool
    over: bool
    games: list[str]


class StandingBody(msgspec.Struct, kw_only=True):
    """An entrant's standing: points (0 to 1 a round: the share of its table-mates it
    finished above, draws halved; 1 for a bye) and the tie-breaks (Buchholz: the
    opponents' points; Sonneborn-Berger: their points weighed by the share taken from
    each), its game wins and games, byes and rounds played. Equal on everything the
    format orders by, entrants share a rank."""
    rank: int
    entrant: str
    name: str
    kind: Literal["human", "bot", "ai"]
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    games: int
    byes: int
    rounds: int


class PairingBody(msgspec.Struct, kw_only=True):
    """Two table-mates' games at one table as a series: `verdict` is the crosstable cell
    a series of those games shows, entrant `a` against entrant `b` (the cell's own `a` and
    `b` are their places in the table's order, the seats of its first game). Beside the
    points the standings count, not instead of them."""
    round: int
    table: int
    a: str                                  # entrant
    b: str                                  # entrant
    verdict: Cell


class TournamentBody(msgspec.Struct, kw_only=True):
    id: str
    owner: str
    game: GameName
    players: int
    format: Format
    rounds: int | None                      # null for a round robin until it starts
    deals: int
    duplicate: bool
    turn_seconds: int
    options: TableOptions | None
    status: Literal["entry", "running", "finished", "cancelled"]
    round: int                              # the round being played; 0 before the start
    created_at: str
    entry_closes_at: str
    finished_at: str | None
    entrants: list[EntrantBody]
    tie_breaks: list[Literal["buchholz", "sonneborn_berger", "wins"]]  # in order, after points
    tables: list[TableBody]                 # the round being played (the last, once over)
    standings: list[StandingBody]
    estimates: Estimates
    judge: Judge | None                     # the judged estimates', fixed at creation
    pairings: list[PairingBody]             # every table over, by round and table
    games: str                              # GET: every game, with its replay
    events: str                             # GET: the tournament's event stream


class TournamentGameSeat(msgspec.Struct, kw_only=True):
    seat: int
    entrant: str
    rank: int | None                        # once the game is over
    points: float | None                    # once over, where the game scores points


class TournamentGameBody(msgspec.Struct, kw_only=True):
    round: int
    table: int
    index: int                              # the game's index at its table
    game_id: str
    deal: int
    rotation: int
    seats: list[TournamentGameSeat]         # in seat order
    started_at: str
    ended_at: str | None
    replay: str                             # GET: every version with every card, once over


class TournamentGames(msgspec.Struct, kw_only=True):
    games: list[TournamentGameBody]
    next: str | None                        # the next page's URL
