"""Finished games: the replay of one, and every archived game as a stream (export)."""

import re
from collections.abc import AsyncIterator
from datetime import datetime

from litestar import Controller, get
from litestar.exceptions import ValidationException
from litestar.openapi.spec import Example
from litestar.params import Parameter
from litestar.response import Stream

import core
from service.archive.replay import replayed
from service.archive.storage import Archive, ExportFilter
from service.games import bodies
from service.games.addressing import GAME_ID, load
from service.games.sessions import GameNotOver, Sessions
from service.http.openapi import NDJSON, problems
from service.sql.database import DatabaseUnavailable

EXPORT_CURSOR = re.compile(r"^[0-9]{1,15}~[A-Za-z0-9_-]{1,64}$")
# An instant with its offset: 2026-11-01T00:00:00Z, 2026-11-01T09:30:00.250+01:00.
INSTANT = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?"
                     r"(Z|[+-][0-9]{2}:[0-9]{2})$")
PLAYER_ID = re.compile(r"^(p_[A-Za-z0-9_-]{16}|ai-[1-5])$")
MAX_EXPORT = 100_000_000  # games one export may ask for (resume with the cursor for more)
CHUNK_BYTES = 64 * 1024  # lines sent together: fewer writes, the memory still flat


class ArchiveController(Controller):
    path = "/v1/games"
    tags = ["archive"]

    @get("/{game_id:str}/replay", responses=problems(404, 409, 503),
         summary="A finished game played again: every version's complete position",
         description="Every card is shown: the game is over. 409 `game-not-over` before"
                     " its end. Positions are the core's snapshots, re-computed from the"
                     " state the game began in and its log.")
    async def replay(self, game_id: str, sessions: Sessions) -> bodies.ReplayBody:
        session = await load(sessions, game_id)
        if session.status != "over":
            raise GameNotOver("a replay shows every card, so it opens once the game is over")
        initial, entries = await sessions.beginning(session)
        _, versions = replayed(initial, entries)
        return bodies.replay_body({"id": game_id, "game": session.meta.game,
                                   "version": session.record.version,
                                   "result": sessions.result(session), "versions": versions})

    @get("/export", media_type=NDJSON, responses=problems(400, 503),
         summary="Every archived game, one JSON record per line, in the order they ended",
         description="Newline-delimited JSON (`application/x-ndjson`), each line an"
                     " ExportedGame; streamed, so any number of games can be read. A"
                     " stream cut short resumes with `cursor` set to the last line's"
                     " `cursor`.")
    async def export(self, archive: Archive,
                     game: str | None = Parameter(
                         query="game", default=None, schema_extra={"enum": list(core.GAMES)},
                         description="only this game's"),
                     game_id: str | None = Parameter(
                         query="id", default=None, pattern=GAME_ID.pattern,
                         description="only the game with this id (its record, once archived)"),
                     player: str | None = Parameter(
                         query="player", default=None, pattern=PLAYER_ID.pattern,
                         description="only the games this player (its id) sat in"),
                     since: str | None = Parameter(
                         query="since", default=None, pattern=INSTANT.pattern,
                         schema_extra={"format": "date-time"},
                         description="games that ended at or after this instant (ISO 8601,"
                                     " with its offset)",
                         examples=[Example(value="2026-11-01T00:00:00Z")]),
                     until: str | None = Parameter(
                         query="until", default=None, pattern=INSTANT.pattern,
                         schema_extra={"format": "date-time"},
                         description="games that ended before this instant (ISO 8601, with"
                                     " its offset)"),
                     cursor: str | None = Parameter(
                         query="cursor", default=None, pattern=EXPORT_CURSOR.pattern,
                         description="resume after the game whose line had this `cursor`"),
                     limit: int = Parameter(
                         query="limit", default=MAX_EXPORT, ge=1, le=MAX_EXPORT,
                         description="at most this many games")) -> Stream:
        if game is not None and game not in core.GAMES:
            raise ValidationException(extra=[{"message": f"game is one of {', '.join(core.GAMES)}",
                                              "key": "game", "source": "query"}])
        after = None
        if cursor is not None:
            ended_ms, _, last_id = cursor.partition("~")
            after = (int(ended_ms), last_id)
        where = ExportFilter(game=game, since_ms=_ms(since, "since"), until_ms=_ms(until, "until"),
                             after=after, player=player, id=game_id)
        lines = _lines(archive, where, limit)
        first = await anext(lines, b"")  # a database that is down is a 503, not a cut stream
        return Stream(_then(first, lines), media_type=NDJSON)


def _ms(text: str | None, name: str) -> int | None:
    if text is None:
        return None
    try:
        if not INSTANT.match(text):
            raise ValueError
        return int(datetime.fromisoformat(text).timestamp() * 1000)
    except ValueError:
        raise ValidationException(extra=[{
            "message": f"{name} is an instant with its offset, e.g. 2026-11-01T00:00:00Z,"
                       f" got {text!r}", "key": name, "source": "query"}]) from None


async def _lines(archive: Archive, where: ExportFilter, limit: int) -> AsyncIterator[bytes]:
    """The export's body in chunks of whole lines: each stored record with the order its
    ratings were updated in (null if unrated) and its cursor."""
    chunk: list[str] = []
    size = sent = 0
    async for ended_ms, game_id, document, rated_order in archive.export(where):
        order = "null" if rated_order is None else rated_order
        line = f'{document[:-1]},"rated_order":{order},"cursor":"{ended_ms}~{game_id}"}}\n'
        chunk.append(line)
        size += len(line)
        sent += 1
        if size >= CHUNK_BYTES or sent == limit:
            yield "".join(chunk).encode()
            chunk, size = [], 0
        if sent == limit:
            return
    if chunk:
        yield "".join(chunk).encode()


async def _then(first: bytes, rest: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    if first:
        yield first
    try:
        async for chunk in rest:
            yield chunk
    except DatabaseUnavailable:
        return  # cut short: the client resumes from the last whole line's cursor
