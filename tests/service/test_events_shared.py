"""Each version's event is redacted and encoded once per viewer in a process, and shared
by every stream of that viewer (a game's spectators, one player's several tabs)."""

import asyncio

from service.events import Hub
from service.schemas import CreateGame, MoveRequest
from service.sessions import Sessions
from service.store import MemoryStore


async def next_events(streams) -> list[bytes]:
    return [await anext(stream) for stream in streams]


def test_streams_of_one_viewer_share_each_events_bytes_and_other_viewers_get_their_own():
    async def scenario():
        sessions = Sessions(MemoryStore(ttl=60))
        hub = Hub(sessions, keep_alive_seconds=30)
        game_id, session, tokens = await sessions.create(CreateGame(game="crabe-vs-poulpe",
                                                                    players=2, seed=3))
        viewers = [None, None, 0, 0, 1]             # two spectators, two tabs of seat 0, seat 1
        streams = [hub.stream(session, seat, since=None) for seat in viewers]
        await next_events(streams)                  # each stream's current state
        mover = session.state.to_move[0]
        move = session.state.legal_moves(mover)[0]
        await sessions.play(game_id, tokens[mover], MoveRequest(move=move), None)
        events = await next_events(streams)
        for stream in streams:
            await stream.aclose()
        return events
    spectator, spectator_too, seat0, seat0_too, seat1 = asyncio.run(scenario())
    assert spectator.startswith(b"id: 1\n")
    assert spectator is spectator_too and seat0 is seat0_too   # made once, shared
    assert len({spectator, seat0, seat1}) == 3                 # each viewer its own redaction
