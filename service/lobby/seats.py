"""Open seats, the waiting list, joins and leaves: strangers meeting at a table.

A join or a leave is a change of the game like a move: a compare-and-set on its version,
so of concurrent joins for one seat exactly one wins. The waiting list is one sorted set
per game name (service/store/keys.py, its own cluster slot) of listed games with open seats,
scored by creation time; filling a game removes it (after the join commits), and readers
prune what they find full or expired, so the list heals itself.
"""

import re
from typing import Any, Literal, Protocol

import msgspec

import core
from service.games.meta import Meta
from service.games.requests import JoinRequest
from service.games.sessions import Next, Session, Sessions, Unauthorized, new_token
from service.http.errors import ApiError
from service.http.framework_errors import InvalidRequest
from service.lobby.presence import spectators_at
from service.store import Attendance, GameRecords, Indexes, keys

MAX_PAGE = 100
Listing = Literal["waiting", "active"]  # the two lists: open seats, games to watch


class SeatUnavailable(ApiError):
    """A join that cannot be made: the seat is taken, or the game is not waiting."""
    status = 409


class SeatTaken(SeatUnavailable):
    type = "seat-taken"
    when = ", a seat is taken"
    when_order = 40
    sentence = "This seat has just been taken."


class GameFull(SeatUnavailable):
    type = "game-full"
    when = ", the game full"
    when_order = 50
    sentence = "Every seat of this game is taken."


class GameStarted(SeatUnavailable):
    """A leave once the game has started."""
    type = "game-started"
    when = ", the game started (`game-started`)"
    when_order = 70
    sentence = "This game has already started."


class NoSuchSeat(ApiError):
    status = 409
    type = "no-such-seat"
    when = " or without that seat (`seat-taken`, `game-full`, `no-such-seat`)"
    when_order = 60
    sentence = "This game has no such seat."


class BadCursor(InvalidRequest):
    """A page's cursor that this API did not give."""


class LobbyStore(Indexes, GameRecords, Attendance, Protocol):
    """What the lobby reads and keeps: the waiting lists, the games they list, and how
    many watch each."""


class Lobby:
    def __init__(self, sessions: Sessions, store: LobbyStore) -> None:
        self.sessions = sessions
        self.store = store  # the waiting lists

    async def list_if_waiting(self, session: Session) -> None:
        meta = session.meta
        if meta.listed and meta.open_seats:
            await self.store.index_add(keys.waiting_list(meta.game), session.game_id, meta.created)

    # -- joining and leaving -------------------------------------------------------

    async def join(self, game_id: str, request: JoinRequest) -> tuple[int, str, Session]:
        """Takes request's seat (or the first open one); the seat, its token, the game."""
        token, digest = new_token()
        player = None if request.player is None else await self.sessions.player(request.player)
        name = request.name or (player.name[:24] if player else None)

        async def take(session: Session) -> Next:
            seat = self._seat_to_take(session, request.seat)
            meta = session.meta
            joined = msgspec.structs.replace(
                meta, token_hashes=_with(meta.token_hashes, seat, digest),
                names=_with(meta.names or [None] * meta.players, seat, name),
                player_ids=_with(meta.player_ids or [None] * meta.players, seat,
                                 player.id if player else None),
                open_seats=[s for s in meta.open_seats if s != seat])
            return Next(self.sessions.next_version(session, session.state, None, joined),
                        {"seat": seat, "kind": "join", "name": name})

        _, joined = await self.sessions.change(game_id, take)
        assert joined is not None  # take always builds a version
        if not joined.pending.meta.open_seats:
            await self.store.index_remove(keys.waiting_list(joined.pending.meta.game), game_id)
        return joined.entry["seat"], token, joined.pending

    @staticmethod
    def _seat_to_take(session: Session, wanted: int | None) -> int:
        meta = session.meta
        if wanted is not None and wanted >= meta.players:
            raise NoSuchSeat(f"this game has seats 0 to {meta.players - 1}, not {wanted}")
        if not meta.open_seats:
            raise GameFull("every seat of this game is taken")
        if wanted is None:
            return meta.open_seats[0]
        if wanted not in meta.open_seats:
            raise SeatTaken(f"seat {wanted} is taken; open seats: {meta.open_seats}")
        return wanted

    async def leave(self, game_id: str, token: str | None) -> Session:
        """Frees the token's seat of a waiting game."""
        async def free(session: Session) -> Next:
            seat = self.sessions.seat_of(session, token)
            if seat is None:
                raise Unauthorized("leaving needs the seat's token: Authorization: Bearer <token>")
            meta = session.meta
            if not meta.open_seats:
                raise GameStarted("only a game still waiting for players can be left")
            left = msgspec.structs.replace(
                meta, token_hashes=_with(meta.token_hashes, seat, None),
                names=_with(meta.names or [None] * meta.players, seat, None),
                player_ids=None if meta.player_ids is None else _with(meta.player_ids, seat, None),
                open_seats=sorted([*meta.open_seats, seat]))
            return Next(self.sessions.next_version(session, session.state, None, left),
                        {"seat": seat, "kind": "leave", "name": meta.name(seat)})

        _, left = await self.sessions.change(game_id, free)
        assert left is not None  # free always builds a version
        await self.list_if_waiting(left.pending)
        return left.pending

    # -- the lists: games waiting for players, games in play to watch -----------------

    async def waiting(self, game: str | None, cursor: str | None, limit: int,
                      status: Listing = "waiting") -> dict[str, Any]:
        """A page of listed games with open seats (status "waiting"), or of watchable
        games in play ("active"), newest first (ties: by id)."""
        after = _decoded(cursor)
        names = [game] if game is not None else list(core.GAMES)
        found: list[tuple[float, str, Meta]] = []
        below = None if after is None else after[0]
        batch_size = 2 * limit + 2
        while len(found) <= limit:
            batch = await self._candidates(status, names, below, after, batch_size)
            found += await self._still_listed(status, batch)
            if len(batch) < batch_size:
                break
            below = batch[-1][0]
            after = (below, batch[-1][1])
        page = found[:limit]
        watching = await spectators_at(self.store, [game_id for _, game_id, _ in page])
        return {"games": [_waiting_game(game_id, meta, spectators)
                          for (_, game_id, meta), spectators in zip(page, watching)],
                "next_cursor": _encoded(page[-1][0], page[-1][1])
                if len(found) > limit else None}

    async def _candidates(self, status: Listing, names: list[str], below: float | None,
                          after: tuple[float, str] | None,
                          count: int) -> list[tuple[float, str, str]]:
        """(score, id, game name) after the cursor position, newest first."""
        rows = []
        for name in names:
            for game_id, score in await self.store.index_page(_index(status, name), below,
                                                              count):
                if after is None or (score, game_id) < after:
                    rows.append((score, game_id, name))
        return sorted(rows, reverse=True)[:count]

    async def _still_listed(self, status: Listing, batch: list[tuple[float, str, str]]
                            ) -> list[tuple[float, str, Meta]]:
        """The batch's games still of the list; those that never will be again (full,
        unlisted, over, gone) are dropped from it, so the list heals itself."""
        records = await self.store.load_many([game_id for _, game_id, _ in batch])
        alive = []
        for (score, game_id, name), record in zip(batch, records):
            meta = None if record is None else msgspec.json.decode(record.meta, type=Meta)
            if meta is None:
                keep, drop = False, True
            elif status == "waiting":
                keep = bool(meta.open_seats) and meta.listed
                drop = not keep
            elif meta.open_seats:  # watchable, still waiting for players: in play soon
                keep, drop = False, False
            else:
                keep = self.sessions.session(game_id, record).status == "active"
                drop = not keep
            if keep:
                alive.append((score, game_id, meta))
            elif drop:
                await self.store.index_remove(_index(status, name), game_id)
        return alive


def _index(status: Listing, game_name: str) -> str:
    return keys.waiting_list(game_name) if status == "waiting" else keys.live_list(game_name)


def _with(values: list, index: int, value: object) -> list:
    return [value if i == index else item for i, item in enumerate(values)]


def _waiting_game(game_id: str, meta: Meta, spectators: int) -> dict[str, Any]:
    return {"id": game_id, "game": meta.game, "players": meta.players, "seats": meta.seats(),
            "created": meta.created, "clock": meta.clock, "spectators": spectators}


# A cursor is the position after which the next page starts: the last game's score (its
# creation time) and id. Any cursor of this form is a position, so none the document allows
# is refused.
CURSOR = re.compile(r"^([0-9]{1,17}\.[0-9]{1,17})~([A-Za-z0-9_-]{1,64})$")


def _encoded(score: float, game_id: str) -> str:
    return f"{score!r}~{game_id}"


def _decoded(cursor: str | None) -> tuple[float, str] | None:
    if cursor is None:
        return None
    found = CURSOR.match(cursor)
    if found is None:
        raise BadCursor("cursor is not one this API gave: use next_cursor as it is")
    return float(found[1]), found[2]
