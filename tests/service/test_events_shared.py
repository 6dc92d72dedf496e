"""Each version's event is redacted and encoded once per viewer in a process, and shared
by every stream of that viewer (a game's spectators, one player's several tabs)."""

import asyncio

from service.events.streams import Hub
from service.games.requests import CreateGame, MoveRequest
from service.games.sessions import Sessions
from service.store import MemoryStore


class Client:
    """One stream's ASGI side: what it was sent, and a receive that waits until told to go."""

    def __init__(self) -> None:
        self.bodies: asyncio.Queue[bytes] = asyncio.Queue()
        self.gone = asyncio.Event()
        self.asked = 0

    async def send(self, message: dict) -> None:
        if message["body"] and not message["body"].startswith(b":"):  # not keep-alives
            await self.bodies.put(message["body"])

    async def receive(self) -> dict:
        self.asked += 1
        if self.asked == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}


async def next_events(clients) -> list[bytes]:
    return [await asyncio.wait_for(client.bodies.get(), 5) for client in clients]


def test_streams_of_one_viewer_share_each_events_bytes_and_other_viewers_get_their_own():
    async def scenario():
        store = MemoryStore(ttl=60)
        sessions = Sessions(store)
        hub = Hub(sessions, store, keep_alive_seconds=30)
        game_id, session, tokens = await sessions.create(CreateGame(game="crabe-vs-poulpe",
                                                                    players=2, seed=3))
        viewers = [None, None, 0, 0, 1]             # two spectators, two tabs of seat 0, seat 1
        clients = [Client() for _ in viewers]
        runs = [asyncio.ensure_future(hub.follower(session, seat, since=None).run(
            client.send, client.receive)) for seat, client in zip(viewers, clients)]
        await next_events(clients)                  # each stream's current state
        mover = session.state.to_move[0]
        move = session.state.legal_moves(mover)[0]
        await sessions.play(game_id, tokens[mover], MoveRequest(move=move), None)
        events = await next_events(clients)
        for client in clients:
            client.gone.set()
        await asyncio.wait_for(asyncio.gather(*runs), 5)  # every stream ends when its client goes
        assert hub._feeds == {}                     # and the game is no longer watched
        return events
    spectator, spectator_too, seat0, seat0_too, seat1 = asyncio.run(scenario())
    assert spectator.startswith(b"id: 1\n")
    assert spectator is spectator_too and seat0 is seat0_too   # made once, shared
    assert len({spectator, seat0, seat1}) == 3                 # each viewer its own redaction
