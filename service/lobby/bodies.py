"""The lobby's own bodies: a rematch offered and waiting for answers, who is at a table
(presence), and the quick reactions said there."""

from typing import Annotated, Literal

import msgspec

from service.games.meta import RematchOffer

# A spectator's id for its heartbeats: random, made by its client, never a seat's token.
ViewerId = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{8,64}$")]


class RematchOffered(msgspec.Struct, kw_only=True):
    """A rematch offered (or accepted) that other seats must still answer: the finished
    game's id and version, and the seats' answers so far. Its next game is made when every
    person's seat wants it; the game's `rematch` then names it."""
    id: str
    version: int
    rematch_offer: RematchOffer


# The phrases a seat may say to the table (service/lobby/reactions.py); each client words
# them in its reader's language.
Phrase = Literal["good-luck", "well-played", "good-game", "thanks", "oops", "hurry-up"]


class ReactionRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/reactions: one of the fixed phrases, by its id."""
    phrase: Phrase


class Reaction(msgspec.Struct, kw_only=True):
    """A quick reaction said at the table: by which seat, which phrase, when (epoch
    seconds). The `data` of an `event: reaction` on the game's event stream; once the game
    is over, an item of the `reactions` of the table's presence answers."""
    seat: int
    phrase: Phrase
    at: float


# Where a page stands in what was said at a finished game's table: the `reactions_after`
# of its last presence answer ("0" before anything was said; a stream entry's id after).
SaidCursor = Annotated[str, msgspec.Meta(pattern=r"^[0-9]{1,19}(-[0-9]{1,19})?$")]


class PresenceRequest(msgspec.Struct, forbid_unknown_fields=True):
    """POST /v1/games/{id}/presence: the caller is at the table (here: true, the default)
    or has left it (false). A seat is named by its token; a spectator by a `viewer` id of
    its own making (without either, the call only reads who is there). `reactions_after`:
    the previous answer's, to hear what was said at the finished game's table since."""
    here: bool = True
    viewer: ViewerId | None = None
    reactions_after: SaidCursor | None = None


class TablePresence(msgspec.Struct, kw_only=True):
    """Who is at a game's table now: the seats whose player's page beat within the last
    PRESENT_SECONDS, and how many spectators' pages did. Once the game is over, the
    reactions said at its table after the request's `reactions_after`, oldest first (none
    for a request without one, nor while the game is in play: its event stream carries
    them), and the cursor to send with the next beat."""
    id: str
    present: list[int]
    spectators: int
    reactions: list[Reaction]
    reactions_after: SaidCursor
