"""Tournaments in the database: each tournament, its entrants, each round's tables and
games, and their outcomes, for good.

Every change that several replicas could make at once is one transaction guarded by a
compare-and-set on the tournament's row: an entrant joins or leaves only while the row
is `entry`; a round is written (its tables and games) only by the transaction that moves
the row's round from the one before; a game's outcome is written only while its
`ended_ms` is null, and the table's results and pairings with the last of them. So a
round is paired once, a game counted once, whichever replica does it and whichever dies
half way.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from service.sql.database import Database, insert
from service.sql.schema import (tournament_entrants, tournament_games, tournament_tables,
                                tournaments)


@dataclass(frozen=True)
class TournamentRow:
    id: str
    owner: str
    game: str
    players: int
    format: str
    spec: dict[str, Any]
    secret: str
    status: str
    round: int
    rounds: int | None
    revision: int
    created_ms: int
    starts_ms: int
    finished_ms: int | None
    standings: list[dict[str, Any]] | None


@dataclass(frozen=True)
class Entrant:
    id: str
    name: str
    kind: str
    entered_ms: int


@dataclass(frozen=True)
class TableRow:
    round: int
    index: int
    entrants: list[str]
    bye: bool
    ended_ms: int | None
    results: list[dict[str, Any]] | None
    pairings: list[dict[str, Any]] | None = None   # verdicts.py's, once its games are over


@dataclass(frozen=True)
class GameRow:
    round: int
    table: int
    index: int
    game_id: str
    deal: int
    rotation: int
    started_ms: int
    ended_ms: int | None
    ranks: dict[str, int] | None
    scores: dict[str, float] | None = None   # entrant -> points, where the game has them
    luck: list[list[float]] | None = None    # the judge's, by the table's entrants' order


@dataclass(frozen=True)
class Outcome:
    """A game's outcome as it is written: ranks by entrant, points by entrant (None where
    the game scores none), the judge's luck (None unless judged)."""
    ranks: dict[str, int]
    scores: dict[str, float] | None
    luck: list[list[float]] | None


@dataclass(frozen=True)
class TableEnd:
    """What a table's last game writes beside it: each entrant's result, each pairing."""
    results: list[dict[str, Any]]
    pairings: list[dict[str, Any]]


@dataclass(frozen=True)
class Round:
    """A round to write: its tables (a bye's with its result already) and games."""
    number: int
    tables: list[TableRow]
    games: list[GameRow]


# What a table's results and pairings are, from its games: given by the runner
# (standings.py, verdicts.py).
Results = Callable[[TableRow, list[GameRow]], TableEnd]


class TournamentBook:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def create(self, row: TournamentRow, entrants: Sequence[Entrant]) -> None:
        async def run(conn: AsyncConnection) -> None:
            async with conn.begin():
                await conn.execute(tournaments.insert().values(
                    id=row.id, owner=row.owner, game=row.game, players=row.players,
                    format=row.format, spec=json.dumps(row.spec), secret=row.secret,
                    status=row.status, round=0, rounds=row.rounds, revision=0,
                    created_ms=row.created_ms, starts_ms=row.starts_ms))
                for entrant in entrants:
                    await conn.execute(tournament_entrants.insert().values(
                        tournament_id=row.id, entrant_id=entrant.id, name=entrant.name,
                        kind=entrant.kind, entered_ms=entrant.entered_ms))

        await self.database.run(run)

    async def get(self, tournament_id: str) -> TournamentRow | None:
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(tournaments).where(
                tournaments.c.id == tournament_id))).first()

        row = await self.database.run(run)
        return None if row is None else _tournament(row)

    async def active(self, now_ms: int, limit: int) -> list[TournamentRow]:
        """Running tournaments and those whose entry window has closed, the oldest first."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(tournaments).where(
                (tournaments.c.status == "running") |
                ((tournaments.c.status == "entry") & (tournaments.c.starts_ms <= now_ms)))
                .order_by(tournaments.c.created_ms).limit(limit))).all()

        return [_tournament(row) for row in await self.database.run(run)]

    async def next_start_ms(self) -> int | None:
        """When the next entry window closes (None: no tournament takes entries)."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(func.min(tournaments.c.starts_ms)).where(
                tournaments.c.status == "entry"))).scalar_one()

        return await self.database.run(run)

    async def entrants(self, tournament_id: str) -> list[Entrant]:
        """In the order they entered."""
        async def run(conn: AsyncConnection) -> Any:
            return (await conn.execute(select(tournament_entrants).where(
                tournament_entrants.c.tournament_id == tournament_id).order_by(
                tournament_entrants.c.entered_ms, tournament_entrants.c.entrant_id))).all()

        return [Entrant(row.entrant_id, row.name, row.kind, row.entered_ms)
                for row in await self.database.run(run)]

    async def enter(self, tournament_id: str, entrant: Entrant, most: int) -> str:
        """`entered`, `already` (entered before), `closed` (not taking entries) or
        `full` (most entrants already)."""
        async def run(conn: AsyncConnection) -> str:
            async with conn.begin():
                if not await _touch(conn, tournament_id, "entry"):
                    return "closed"
                count = (await conn.execute(select(func.count()).select_from(
                    tournament_entrants).where(
                    tournament_entrants.c.tournament_id == tournament_id))).scalar_one()
                if count >= most:
                    raise _Undone("full")
                done = await conn.execute(insert(conn.dialect.name, tournament_entrants).values(
                    tournament_id=tournament_id, entrant_id=entrant.id, name=entrant.name,
                    kind=entrant.kind, entered_ms=entrant.entered_ms).on_conflict_do_nothing())
                if done.rowcount != 1:
                    raise _Undone("already")
                return "entered"

        return await _undoable(self.database, run)

    async def leave(self, tournament_id: str, entrant_id: str) -> str:
        """`left`, `absent` (not an entrant) or `closed` (not taking entries)."""
        async def run(conn: AsyncConnection) -> str:
            async with conn.begin():
                if not await _touch(conn, tournament_id, "entry"):
                    return "closed"
                done = await conn.execute(delete(tournament_entrants).where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.entrant_id == entrant_id))
                if done.rowcount != 1:
                    raise _Undone("absent")
                return "left"

        return await _undoable(self.database, run)

    async def open_now(self, tournament_id: str, now_ms: int) -> bool:
        """The entry window closes now (its owner starts it); False if it was not open."""
        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                done = await conn.execute(update(tournaments).where(
                    tournaments.c.id == tournament_id, tournaments.c.status == "entry").values(
                    starts_ms=func.least(tournaments.c.starts_ms, now_ms)
                    if conn.dialect.name == "postgresql"
                    else func.min(tournaments.c.starts_ms, now_ms),
                    revision=tournaments.c.revision + 1))
                return done.rowcount == 1

        return await self.database.run(run)

    async def begin_round(self, tournament_id: str, after: int, rounds: int,
                          made: Round) -> bool:
        """Writes round `after + 1` (the first: the tournament starts), once: False if
        another replica wrote it, or the tournament is not running (or taking entries,
        for the first)."""
        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                status = "entry" if after == 0 else "running"
                done = await conn.execute(update(tournaments).where(
                    tournaments.c.id == tournament_id, tournaments.c.status == status,
                    tournaments.c.round == after).values(
                    status="running", round=after + 1, rounds=rounds,
                    revision=tournaments.c.revision + 1))
                if done.rowcount != 1:
                    return False
                for table in made.tables:
                    await conn.execute(tournament_tables.insert().values(
                        tournament_id=tournament_id, round=made.number,
                        table_index=table.index, entrants=json.dumps(table.entrants),
                        bye=table.bye, ended_ms=table.ended_ms,
                        results=None if table.results is None else json.dumps(table.results)))
                for game in made.games:
                    await conn.execute(tournament_games.insert().values(
                        tournament_id=tournament_id, round=made.number,
                        table_index=game.table, game_index=game.index, game_id=game.game_id,
                        deal=game.deal, rotation=game.rotation, started_ms=game.started_ms))
                return True

        return await self.database.run(run)

    async def close(self, tournament_id: str, status: str, finished_ms: int,
                    standings: list[dict[str, Any]] | None, *,
                    from_status: Sequence[str], at_round: int | None = None) -> bool:
        """finished (with its standings) or cancelled, once; False if it was not in one
        of from_status (or at round at_round)."""
        async def run(conn: AsyncConnection) -> bool:
            async with conn.begin():
                query = update(tournaments).where(tournaments.c.id == tournament_id,
                                                  tournaments.c.status.in_(from_status))
                if at_round is not None:
                    query = query.where(tournaments.c.round == at_round)
                done = await conn.execute(query.values(
                    status=status, finished_ms=finished_ms, revision=tournaments.c.revision + 1,
                    standings=None if standings is None else json.dumps(standings)))
                return done.rowcount == 1

        return await self.database.run(run)

    async def tables(self, tournament_id: str, round_number: int | None = None) -> list[TableRow]:
        async def run(conn: AsyncConnection) -> Any:
            query = select(tournament_tables).where(
                tournament_tables.c.tournament_id == tournament_id)
            if round_number is not None:
                query = query.where(tournament_tables.c.round == round_number)
            return (await conn.execute(query.order_by(tournament_tables.c.round,
                                                      tournament_tables.c.table_index))).all()

        return [_table(row) for row in await self.database.run(run)]

    async def games(self, tournament_id: str, round_number: int | None = None,
                    unfinished_only: bool = False, after: tuple[int, int, int] | None = None,
                    limit: int | None = None) -> list[GameRow]:
        async def run(conn: AsyncConnection) -> Any:
            c = tournament_games.c
            query = select(tournament_games).where(c.tournament_id == tournament_id)
            if round_number is not None:
                query = query.where(c.round == round_number)
            if unfinished_only:
                query = query.where(c.ended_ms.is_(None))
            if after is not None:
                r, t, g = after
                query = query.where((c.round > r) | ((c.round == r) & (c.table_index > t)) |
                                    ((c.round == r) & (c.table_index == t) & (c.game_index > g)))
            query = query.order_by(c.round, c.table_index, c.game_index)
            return (await conn.execute(query if limit is None else query.limit(limit))).all()

        return [_game(row) for row in await self.database.run(run)]

    async def end_game(self, tournament_id: str, game: GameRow, ended_ms: int,
                       outcome: Outcome, results: Results) -> TableEnd | None | bool:
        """Writes a game's outcome, once, and with the last game of its table the table's
        results and pairings. False: written before; None: written, the table goes on;
        else what the table's end wrote."""
        async def run(conn: AsyncConnection) -> Any:
            c = tournament_games.c
            async with conn.begin():
                done = await conn.execute(update(tournament_games).where(
                    c.tournament_id == tournament_id, c.round == game.round,
                    c.table_index == game.table, c.game_index == game.index,
                    c.ended_ms.is_(None)).values(
                    ended_ms=ended_ms, ranks=json.dumps(outcome.ranks),
                    scores=None if outcome.scores is None else json.dumps(outcome.scores),
                    luck=None if outcome.luck is None else json.dumps(outcome.luck)))
                if done.rowcount != 1:
                    return False
                at_table = [_game(row) for row in (await conn.execute(
                    select(tournament_games).where(
                        c.tournament_id == tournament_id, c.round == game.round,
                        c.table_index == game.table).order_by(c.game_index))).all()]
                if any(found.ranks is None for found in at_table):
                    return None
                t = tournament_tables.c
                table = _table((await conn.execute(select(tournament_tables).where(
                    t.tournament_id == tournament_id, t.round == game.round,
                    t.table_index == game.table))).one())
                made = results(table, at_table)
                await conn.execute(update(tournament_tables).where(
                    t.tournament_id == tournament_id, t.round == game.round,
                    t.table_index == game.table).values(
                    ended_ms=ended_ms, results=json.dumps(made.results),
                    pairings=json.dumps(made.pairings)))
                await conn.execute(update(tournaments).where(
                    tournaments.c.id == tournament_id).values(
                    revision=tournaments.c.revision + 1))
                return made

        return await self.database.run(run)


class _Undone(Exception):
    """Rolls a transaction back (the revision it moved) with an answer."""

    def __init__(self, answer: str) -> None:
        self.answer = answer


async def _undoable(database: Database, work: Callable[[AsyncConnection], Any]) -> Any:
    try:
        return await database.run(work)
    except _Undone as undone:
        return undone.answer


async def _touch(conn: AsyncConnection, tournament_id: str, status: str) -> bool:
    """Moves the revision if the tournament is in status (and locks its row till commit)."""
    done = await conn.execute(update(tournaments).where(
        tournaments.c.id == tournament_id, tournaments.c.status == status).values(
        revision=tournaments.c.revision + 1))
    return done.rowcount == 1


def _tournament(row: Any) -> TournamentRow:
    return TournamentRow(row.id, row.owner, row.game, row.players, row.format,
                         json.loads(row.spec), row.secret, row.status, row.round, row.rounds,
                         row.revision, row.created_ms, row.starts_ms, row.finished_ms,
                         None if row.standings is None else json.loads(row.standings))


def _table(row: Any) -> TableRow:
    return TableRow(row.round, row.table_index, json.loads(row.entrants), row.bye,
                    row.ended_ms, None if row.results is None else json.loads(row.results),
                    None if row.pairings is None else json.loads(row.pairings))


def _game(row: Any) -> GameRow:
    return GameRow(row.round, row.table_index, row.game_index, row.game_id, row.deal,
                   row.rotation, row.started_ms, row.ended_ms,
                   None if row.ranks is None else json.loads(row.ranks),
                   None if row.scores is None else json.loads(row.scores),
                   None if row.luck is None else json.loads(row.luck))
