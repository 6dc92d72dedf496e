"""What is said at a finished game's table: "Good game" comes after the last move, when
the game's event streams have ended. So a reaction said then is kept a while in the store,
beside the game (`keys.said_at_table`: a stream, read alike by every replica), and each page
still at the table reads what was said since its last presence beat with its next one
(service/lobby/presence.py), by a cursor that the answer hands back: nothing is heard twice,
and a page that arrives later hears nothing said before it came.

Kept as a player's events are (PlayerEventStreams): the latest KEEP or so, for KEEP_SECONDS
after the last one, never as a version of the game.
"""

from typing import Protocol

import msgspec

from service.lobby.bodies import Reaction
from service.store import PlayerEventStreams, keys

KEEP = 32             # a page beats every few seconds: it misses none of the latest 32
KEEP_SECONDS = 3600   # as the table's presence: forgotten an hour after the last word
START = "0"           # the cursor before anything was said


class TalkStore(PlayerEventStreams, Protocol):
    """Where a finished game's reactions are kept."""


async def keep(store: TalkStore, game_id: str, reaction: Reaction) -> None:
    await store.player_events_push(keys.said_at_table(game_id), None,
                                   msgspec.json.encode(reaction), KEEP, KEEP_SECONDS)


async def said_after(store: TalkStore, game_id: str,
                     after: str | None) -> tuple[list[Reaction], str]:
    """What was said after the cursor `after`, oldest first, and the cursor after it. A page
    with no cursor yet (None) is handed one past everything said: it hears from now on."""
    found = await store.player_events_read(keys.said_at_table(game_id), after or START, 0)
    cursor = found[-1][0] if found else after or START
    if after is None:
        return [], cursor
    return [msgspec.json.decode(event, type=Reaction) for _, event in found], cursor
