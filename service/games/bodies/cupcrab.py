"""Cup the Crab's bodies: its moves, view and result exactly as `docs/rules.md` gives them."""

from typing import Annotated, Literal, TypeAlias

import msgspec

from core.games.cupcrab import rules as cupcrab
from service.games.bodies.archived import (
    ExportedGameBase,
    ReplayBase,
    ReplayVersionBase,
    ReviewBase,
    ReviewedDecisionBase,
)
from service.games.bodies.common import (
    DeltaEventBase,
    EventBase,
    GameBodies,
    GameBodyBase,
    HistoryBase,
    LegalMovesBase,
    MoveEntryBase,
    MoveStatBase,
    SeatEntry,
    SuggestionBase,
    WebhookFailure,
)

Card = Literal[cupcrab.CARD_NAMES]  # type: ignore[valid-type]
Phase = Literal[cupcrab.PHASE_NAMES]  # type: ignore[valid-type]
Slot = msgspec.Meta(ge=0, le=4)


class CupCrabSelect(msgspec.Struct, tag_field="type", tag="select", forbid_unknown_fields=True):
    """The secret selection: three of the seat's remaining cards, in any order."""
    cards: Annotated[list[Card], msgspec.Meta(min_length=3, max_length=3)]


class CupCrabPlay(msgspec.Struct, tag_field="type", tag="play", forbid_unknown_fields=True):
    """Play a card on the stack in slot `stack` (Crab and Octopus claim it)."""
    card: Card
    stack: Annotated[int, Slot]


class CupCrabNewStack(msgspec.Struct, tag_field="type", tag="new-stack",
                      forbid_unknown_fields=True):
    """Start a stack in the lowest free slot with a Cup or a Bottle."""
    card: Card


class CupCrabDiscard(msgspec.Struct, tag_field="type", tag="discard",
                     forbid_unknown_fields=True):
    """Discard a card: only when no card of the hand can be placed."""
    card: Card


CupCrabMove: TypeAlias = CupCrabSelect | CupCrabPlay | CupCrabNewStack | CupCrabDiscard


class CupCrabSeenSelect(msgspec.Struct, tag_field="type", tag="select"):
    """A selection in the log: `cards` is null for other seats until the game is over."""
    cards: list[Card] | None


CupCrabSeenMove: TypeAlias = CupCrabSeenSelect | CupCrabPlay | CupCrabNewStack | CupCrabDiscard


class CupCrabStack(msgspec.Struct):
    cards: list[Card]  # bottom first
    value: int
    bottle: bool


class CupCrabSeat(msgspec.Struct):
    """What everyone knows of a seat."""
    seat: int
    cards_left: int
    cups_left: int
    crabs: int
    octopuses: int
    bottles: int
    hand_size: int
    selected: bool
    score: int
    score_cups: int
    score_pile: list[Card]
    discards: int


class CupCrabView(msgspec.Struct):
    """What a seat (null: a spectator) may know: its own hand and reserve, the table."""
    game: Literal["cup-the-crab"]
    players: int
    seat: int | None
    phase: Phase
    round: int
    first_player: int
    starting_player: int
    to_move: list[int]
    max_stacks: int
    stacks: list[CupCrabStack | None]  # max_stacks slots, null for a free one
    discards: list[Card]
    seats: list[CupCrabSeat]
    hand: list[Card] | None
    reserve: list[Card] | None


class CupCrabRank(msgspec.Struct):
    seat: int
    rank: int
    score: int
    cups: int


class CupCrabResult(msgspec.Struct, kw_only=True):
    scores: list[int]
    cups: list[int]
    winners: list[int]
    ranking: list[CupCrabRank]
    # forfeit: a turn clock ended the game; resigned: a resignation ended it, or a seat
    # resigned before the end (docs/rules.md, "Resigning")
    reason: Literal["finished", "forfeit", "resigned"]
    forfeited: list[int]                     # the seats that let their clock run out
    resigned: list[int]                      # the seats whose player resigned, ranked last


class CupCrabGame(GameBodyBase[CupCrabView, CupCrabMove, CupCrabResult],
                  tag_field="game", tag="cup-the-crab"):
    """A game of Cup the Crab as the caller may see it."""


class CupCrabLegalMoves(LegalMovesBase[CupCrabMove], tag_field="game", tag="cup-the-crab"):
    """The caller's legal moves, each exactly as POST .../moves takes it."""


class CupCrabMoveEntry(MoveEntryBase[CupCrabSeenMove], tag_field="kind", tag="move"):
    """A move of Cup the Crab as the caller may see it."""


class CupCrabTimeoutEntry(MoveEntryBase[CupCrabSeenMove], tag_field="kind", tag="timeout"):
    """A move the server's AI made for a seat whose turn clock ran out, or whose webhook
    bot gave no move (`webhook` says why)."""
    policy: Literal["ai"]
    webhook: WebhookFailure | msgspec.UnsetType = msgspec.UNSET


CupCrabEntry: TypeAlias = (CupCrabMoveEntry | CupCrabTimeoutEntry | SeatEntry)


class CupCrabHistory(HistoryBase[CupCrabEntry], tag_field="game", tag="cup-the-crab"):
    """The move log of a Cup the Crab game as the caller may see it."""


class CupCrabMoveStat(MoveStatBase[CupCrabMove]):
    pass


class CupCrabSuggestion(SuggestionBase[CupCrabMove, CupCrabMoveStat],
                        tag_field="game", tag="cup-the-crab"):
    """The AI's suggested Cup the Crab move for the caller's seat."""


class CupCrabEvent(EventBase[CupCrabEntry, CupCrabGame]):
    """One event of a Cup the Crab game's stream, as the viewer may see it."""


class CupCrabDeltaEvent(DeltaEventBase[CupCrabEntry]):
    """One delta event of a Cup the Crab game's stream (`?delta=true`), as the viewer may see
    it."""


class CupCrabSeatPosition(msgspec.Struct, kw_only=True):
    reserve: list[Card]
    hand: list[Card]
    selected: bool
    score_pile: list[Card]
    discards: int


class CupCrabPosition(msgspec.Struct, kw_only=True):
    """The complete position (core's snapshot): every seat's reserve, hand and score pile,
    the box's cards."""
    game: Literal["cup-the-crab"]
    players: int
    phase: Phase
    round: int
    first_player: int
    plays: int
    stacks: list[CupCrabStack | None]
    discards: list[Card]
    box: list[Card]
    seats: list[CupCrabSeatPosition]


class CupCrabExportedGame(ExportedGameBase[CupCrabEntry, CupCrabResult], tag_field="game",
                          tag="cup-the-crab"):
    """A finished game of Cup the Crab, whole (one line of the export)."""


class CupCrabReplayVersion(ReplayVersionBase[CupCrabEntry, CupCrabPosition]):
    pass


class CupCrabReplay(ReplayBase[CupCrabReplayVersion, CupCrabResult], tag_field="game",
                    tag="cup-the-crab"):
    """A finished game played again: every version's complete position."""



class CupCrabReviewedDecision(ReviewedDecisionBase[CupCrabMove]):
    pass


class CupCrabReview(ReviewBase[CupCrabReviewedDecision], tag_field="game", tag="cup-the-crab"):
    """A finished game's review for one seat."""


BODIES = GameBodies(game="cup-the-crab", prefix="CupCrab", move=CupCrabMove, body=CupCrabGame,
                    legal_moves=CupCrabLegalMoves, history=CupCrabHistory,
                    suggestion=CupCrabSuggestion, event=CupCrabEvent,
                    delta_event=CupCrabDeltaEvent, exported=CupCrabExportedGame,
                    replay=CupCrabReplay, review=CupCrabReview)
