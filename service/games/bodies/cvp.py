"""Crabe vs Poulpe's bodies: its moves, view and result exactly as `docs/rules.md` gives them."""

from typing import Annotated, Literal, TypeAlias

import msgspec

from core.games.cvp import rules as cvp
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

Card = Literal[cvp.CARD_NAMES]  # type: ignore[valid-type]
Phase = Literal[cvp.PHASE_NAMES]  # type: ignore[valid-type]
Effect = Literal[cvp.EFFECT_NAMES]  # type: ignore[valid-type]
Copyable = Literal[cvp.COPYABLE]  # type: ignore[valid-type]
Colour = Literal[cvp.COLOURS]  # type: ignore[valid-type]
Mode = Literal[cvp.MODES]  # type: ignore[valid-type]


Face = Literal[cvp.FACE_NAMES]  # type: ignore[valid-type]
# 5 to 40 cards of each colour (docs/rules.md).
ColourDeck = Annotated[list[Face], msgspec.Meta(min_length=5, max_length=40)]


class CvpDeck(msgspec.Struct, forbid_unknown_fields=True):
    """Crabe vs Poulpe's custom deck: each colour's cards by face, one entry per card
    (`["alpha", "alpha", "1", ...]`). As a list per colour, every deck the schema allows is
    one the game takes: 5 to 40 cards of each colour."""
    crab: ColourDeck
    octopus: ColourDeck

    def for_core(self) -> dict[str, int]:
        """The deck as core takes it: {card name: copies}."""
        counted: dict[str, int] = {}
        for colour, faces in (("crab", self.crab), ("octopus", self.octopus)):
            for face in faces:
                counted[f"{colour}-{face}"] = counted.get(f"{colour}-{face}", 0) + 1
        return counted


# Its creation options beside the first player: the deck a mode names, or a deck of one's
# own (the view's mode is "custom" then; no request asks for it by name).
OPTIONS = (("mode", Literal["symmetrical", "asymmetrical"]), ("deck", CvpDeck))


class CvpPlay(msgspec.Struct, tag_field="type", tag="play", forbid_unknown_fields=True):
    """Play a card (in a response window only a Resist card)."""
    card: Card


class CvpPass(msgspec.Struct, tag_field="type", tag="pass", forbid_unknown_fields=True):
    """Pass a normal turn (never the round's first card)."""


class CvpDecline(msgspec.Struct, tag_field="type", tag="decline", forbid_unknown_fields=True):
    """Do not resist, do not capture, or copy nothing (Mimic)."""


class CvpCapture(msgspec.Struct, tag_field="type", tag="capture", forbid_unknown_fields=True):
    """Capture: take the covered card."""


class CvpPincer(msgspec.Struct, tag_field="type", tag="pincer", forbid_unknown_fields=True):
    """Pincer: a card of the opponent's revealed hand."""
    card: Card


class CvpDiscard(msgspec.Struct, tag_field="type", tag="discard", forbid_unknown_fields=True):
    """Heal, Draw and Discard: a card of your hand."""
    card: Card


class CvpSearch(msgspec.Struct, tag_field="type", tag="search", forbid_unknown_fields=True):
    """Search: a card of your draw pile."""
    card: Card


class CvpGive(msgspec.Struct, tag_field="type", tag="give", forbid_unknown_fields=True):
    """Offer: a card of your hand given to the opponent."""
    card: Card


class CvpCopy(msgspec.Struct, tag_field="type", tag="copy", forbid_unknown_fields=True):
    """Mimic: copy an effect of the revealed hand."""
    effect: Copyable


CvpMove: TypeAlias = (CvpPlay | CvpPass | CvpDecline | CvpCapture | CvpPincer | CvpDiscard
                      | CvpSearch | CvpGive | CvpCopy)


class CvpSeenPincer(msgspec.Struct, tag_field="type", tag="pincer"):
    """A Pincer in the log: the card is null for spectators."""
    card: Card | None


class CvpSeenDiscard(msgspec.Struct, tag_field="type", tag="discard"):
    """A discard in the log: face down, so null for everyone but its maker."""
    card: Card | None


class CvpSeenSearch(msgspec.Struct, tag_field="type", tag="search"):
    """A Search in the log: the card is null for everyone but its maker."""
    card: Card | None


class CvpSeenGive(msgspec.Struct, tag_field="type", tag="give"):
    """An Offer in the log: the card is null for spectators."""
    card: Card | None


CvpSeenMove: TypeAlias = (CvpPlay | CvpPass | CvpDecline | CvpCapture | CvpSeenPincer
                          | CvpSeenDiscard | CvpSeenSearch | CvpSeenGive | CvpCopy)


class CvpPending(msgspec.Struct):
    """The card whose effect awaits a response or is resolving."""
    card: Card
    effect: Effect
    seat: int


class CvpSeat(msgspec.Struct):
    seat: int
    colour: Colour
    hand_size: int
    draw_size: int


class CvpView(msgspec.Struct):
    """What a seat (null: a spectator) may know (ruling P8)."""
    game: Literal["crabe-vs-poulpe"]
    players: int
    seat: int | None
    mode: Mode
    phase: Phase
    round: int
    first_player: int
    opener: int
    to_move: list[int]
    pile: list[Card]            # bottom first
    last_player: int | None
    lower: bool                 # the next card must be lower (Reverse)
    pending: CvpPending | None
    discard_size: int
    seats: list[CvpSeat]
    hand: list[Card] | None
    revealed: list[Card] | None   # the opponent's hand while this seat chooses a Pincer or Mimic
    draw_pile: list[Card] | None  # this seat's own draw pile while it Searches
    deck: dict[Card, int]
    winner: int | None


class CvpRank(msgspec.Struct):
    seat: int
    rank: int
    cards_left: int


class CvpResult(msgspec.Struct, kw_only=True):
    winner: int | None  # None: both seats let their clocks run out, nobody won
    winners: list[int]
    cards_left: list[int]
    rounds: int
    ranking: list[CvpRank]
    # forfeit: a turn clock ended the game; resigned: a resignation ended it, or a seat
    # resigned before the end (docs/rules.md, "Resigning")
    reason: Literal["finished", "forfeit", "resigned"]
    forfeited: list[int]                     # the seats that let their clock run out
    resigned: list[int]                      # the seats whose player resigned, ranked last


class CvpGame(GameBodyBase[CvpView, CvpMove, CvpResult], tag_field="game",
              tag="crabe-vs-poulpe"):
    """A game of Crabe vs Poulpe as the caller may see it."""


class CvpLegalMoves(LegalMovesBase[CvpMove], tag_field="game", tag="crabe-vs-poulpe"):
    """The caller's legal moves, each exactly as POST .../moves takes it."""


class CvpMoveEntry(MoveEntryBase[CvpSeenMove], tag_field="kind", tag="move", kw_only=True):
    """A move of Crabe vs Poulpe as the caller may see it; `revealed` is the hand its maker
    was shown for a Pincer or Mimic (to that seat only until the game is over)."""
    revealed: list[Card] | msgspec.UnsetType = msgspec.UNSET


class CvpTimeoutEntry(MoveEntryBase[CvpSeenMove], tag_field="kind", tag="timeout",
                      kw_only=True):
    """A move the server's AI made for a seat whose turn clock ran out, or whose webhook
    bot gave no move (`webhook` says why)."""
    policy: Literal["ai"]
    revealed: list[Card] | msgspec.UnsetType = msgspec.UNSET
    webhook: WebhookFailure | msgspec.UnsetType = msgspec.UNSET


CvpEntry: TypeAlias = (CvpMoveEntry | CvpTimeoutEntry | SeatEntry)


class CvpHistory(HistoryBase[CvpEntry], tag_field="game", tag="crabe-vs-poulpe"):
    """The move log of a Crabe vs Poulpe game as the caller may see it."""


class CvpMoveStat(MoveStatBase[CvpMove]):
    pass


class CvpSuggestion(SuggestionBase[CvpMove, CvpMoveStat], tag_field="game",
                    tag="crabe-vs-poulpe"):
    """The AI's suggested Crabe vs Poulpe move for the caller's seat."""


class CvpEvent(EventBase[CvpEntry, CvpGame]):
    """One event of a Crabe vs Poulpe game's stream, as the viewer may see it."""


class CvpDeltaEvent(DeltaEventBase[CvpEntry]):
    """One delta event of a Crabe vs Poulpe game's stream (`?delta=true`), as the viewer may see
    it."""


class CvpSeatPosition(msgspec.Struct, kw_only=True):
    hand: list[Card]
    draw_pile: list[Card]        # top first


class CvpPosition(msgspec.Struct, kw_only=True):
    """The complete position (core's snapshot): both hands and draw piles in order."""
    game: Literal["crabe-vs-poulpe"]
    players: int
    mode: Mode
    deck: dict[Card, int]
    phase: Phase
    round: int
    first_player: int
    opener: int
    last_player: int | None
    lower: bool
    winner: int | None
    pile: list[Card]
    discard: list[Card]
    seats: list[CvpSeatPosition]


class CvpExportedGame(ExportedGameBase[CvpEntry, CvpResult], tag_field="game",
                          tag="crabe-vs-poulpe"):
    """A finished game of Crabe vs Poulpe, whole (one line of the export)."""


class CvpReplayVersion(ReplayVersionBase[CvpEntry, CvpPosition]):
    pass


class CvpReplay(ReplayBase[CvpReplayVersion, CvpResult], tag_field="game",
                    tag="crabe-vs-poulpe"):
    """A finished game played again: every version's complete position."""



class CvpReviewedDecision(ReviewedDecisionBase[CvpMove]):
    pass


class CvpReview(ReviewBase[CvpReviewedDecision], tag_field="game", tag="crabe-vs-poulpe"):
    """A finished game's review for one seat."""


BODIES = GameBodies(game="crabe-vs-poulpe", prefix="Cvp", move=CvpMove, body=CvpGame,
                    legal_moves=CvpLegalMoves, history=CvpHistory,
                    suggestion=CvpSuggestion, event=CvpEvent,
                    delta_event=CvpDeltaEvent, exported=CvpExportedGame,
                    replay=CvpReplay, review=CvpReview, options=OPTIONS)
