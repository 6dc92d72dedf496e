"""Bodies of the arena: challenges and series (docs/arena.md)."""

from typing import Annotated, Literal

import msgspec

from service.arena.estimates import Judge
from service.games.requests import GameName, GameOptions

# A player's id (p_...) or an AI level's (ai-1 .. ai-5; the document lists the levels
# this server plays: service/http/exact_requests.py).
ContestantId = Annotated[str, msgspec.Meta(pattern=r"^(p_[A-Za-z0-9_-]{16}|ai-[1-5])$")]
# From this server's TURN_SECONDS_MIN (service/games/limits.py checks it); null or absent:
# the default clock below, or TURN_SECONDS_MIN where that is longer.
TurnSeconds = Annotated[int, msgspec.Meta(ge=1, le=86_400)] | None
CHALLENGE_TURN_SECONDS = 60
SERIES_TURN_SECONDS = 10


class TableOptions(GameOptions, forbid_unknown_fields=True, omit_defaults=True):
    """A challenge's or a series' game options, as POST /v1/games takes them (each game
    takes some of them; the core says which)."""


class ChallengeRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/challenges: a game of `game` offered by the key's player to `opponents`
    (players' ids, or ai-1 .. ai-5 for AI levels, which accept at once). The table has
    one seat more than opponents; the challenger's `seat`, random if not given."""
    game: GameName
    opponents: Annotated[list[ContestantId], msgspec.Meta(min_length=1, max_length=4)]
    options: TableOptions | None = None
    turn_seconds: TurnSeconds = None        # each decision's clock; the AI moves on timeout
    rated: bool = True                      # rated if eligible: no seed, players and AI only
    seat: Annotated[int, msgspec.Meta(ge=0, le=4)] | None = None
    expires_in: Annotated[int, msgspec.Meta(ge=10, le=86_400)] = 600  # seconds to answer


class ChallengeSeat(msgspec.Struct, kw_only=True):
    player: str
    name: str
    kind: str                               # human, bot or ai
    answer: Literal["challenger", "pending", "accepted", "declined", "ai"]


class ChallengeBody(msgspec.Struct, kw_only=True):
    """A challenge as one of its parties sees it: `pending` until every challenged player
    accepts, then `accepted` with its game (`game_id`, this party's `seat` and `token`);
    or `declined`, `cancelled` (by the challenger) or `expired`. `starting`: its game is
    being made."""
    id: str
    game: GameName
    players: int
    options: TableOptions | None
    turn_seconds: int
    rated: bool
    seats: list[ChallengeSeat]
    status: Literal["pending", "starting", "accepted", "declined", "cancelled", "expired"]
    created_at: str
    expires_at: str                         # pending until then at the latest
    game_id: str | None
    seat: int | None                        # this party's seat
    token: str | None                       # this party's seat token, once accepted


class SeriesRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/series: `deals` deals of `game` for `players`, each played once per
    rotation of the seats by `contestants` (as many as players: players' ids or AI
    levels; besides AI levels, the key's own player and bots). With `duplicate`, every
    rotation of a deal has the same cards. `at_once`: games of the series in play at a
    time."""
    game: GameName
    players: Annotated[int, msgspec.Meta(ge=2, le=5)]
    contestants: Annotated[list[ContestantId], msgspec.Meta(min_length=2, max_length=5)]
    deals: Annotated[int, msgspec.Meta(ge=1, le=2_000)] = 100
    duplicate: bool = True
    turn_seconds: TurnSeconds = None
    options: TableOptions | None = None
    at_once: Annotated[int, msgspec.Meta(ge=1, le=16)] = 4


class Interval(msgspec.Struct, kw_only=True):
    """A mean with its 95% interval (null with fewer than two samples)."""
    mean: float
    low: float | None
    high: float | None
    samples: int
    excludes_zero: bool


class DealsNeeded(msgspec.Struct, kw_only=True):
    paired: int | None
    unpaired: int | None
    corrected: int | None                   # the corrected estimate's; null: no game judged
    fitted: int | None                      # the fitted estimate's; null: no deal judged


class Cell(msgspec.Struct, kw_only=True):
    """Contestant a against contestant b (indexes into `contestants`): games, a's wins,
    draws and losses against b, a's score (1 above b, 0.5 level, 0 below; the mean), the
    difference of scores per game (a's minus b's) unpaired and paired by deal, with 95%
    intervals, the variance the pairing removed, and deals each format needs for +-5%;
    and the same of points where the game scores them."""
    a: int
    b: int
    games: int
    deals: int                              # complete deals (every rotation played)
    a_wins: int
    draws: int
    b_wins: int
    score: float | None
    difference: Interval
    paired_difference: Interval
    variance_ratio: float | None            # unpaired variance of the mean / paired
    deals_for_5_percent: DealsNeeded
    # Where the game scores points (Cup the Crab): a's points minus b's per game, unpaired
    # and paired by deal, and their variance ratio; null for a game without points.
    points_difference: Interval | None
    paired_points_difference: Interval | None
    points_variance_ratio: float | None
    # The variance-reduced estimate (AIVAT: each game's difference less the luck the
    # series' judge found in its replay), over the games judged, and the variance of the
    # plain difference over the corrected one's, on those games; null before any is judged.
    corrected_difference: Interval | None
    corrected_variance_ratio: float | None
    # The paired difference less the judge's luck times a coefficient fitted on the other
    # deals (least squares, leaving the deal out: unbiased), over the complete deals
    # judged, with Student's t's interval; and the paired variance over this one's on
    # those deals; null before a deal is judged.
    fitted_difference: Interval | None
    fitted_variance_ratio: float | None


class Latency(msgspec.Struct, kw_only=True):
    """A contestant's thinking time per move (from its turn's start to its move)."""
    moves: int
    timeouts: int                           # moves the clock made for it
    mean_ms: float | None
    p50_ms: float | None
    p90_ms: float | None
    p99_ms: float | None
    max_ms: float | None


class SeriesContestant(msgspec.Struct, kw_only=True):
    index: int
    id: str
    name: str
    kind: str
    latency: Latency


class SeriesBody(msgspec.Struct, kw_only=True):
    id: str
    owner: str
    game: GameName
    players: int
    deals: int
    duplicate: bool
    turn_seconds: int
    at_once: int
    status: Literal["running", "finished", "cancelled"]
    games_total: int
    games_done: int
    created_at: str
    finished_at: str | None
    contestants: list[SeriesContestant]
    judge: Judge | None                     # the corrected estimate's, fixed at creation
    crosstable: list[Cell]
    games: str                              # GET this for every game, with its replay


class SeriesGameSeat(msgspec.Struct, kw_only=True):
    """One seat of a series' game: who played it, and once the game is over the seat's
    rank (1: first) and points (null for a game that scores none: Crabe vs Poulpe)."""
    seat: int
    contestant: int                         # its index in the series' `contestants`
    rank: int | None
    points: float | None


class SeriesGameBody(msgspec.Struct, kw_only=True):
    index: int
    deal: int
    rotation: int
    game_id: str
    seats: list[SeriesGameSeat]             # in seat order: seats[s] is seat s
    started_at: str
    ended_at: str | None
    replay: str                             # GET: every version with every card, once over


class SeriesGames(msgspec.Struct, kw_only=True):
    games: list[SeriesGameBody]
    next: str | None                        # the next page's URL
