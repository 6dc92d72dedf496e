"""The archive's database contract, the same on PostgreSQL and SQLite: a game is written
once, read back whole, exported in the order games ended, forgotten by retention, and a
schema that is not this service's stops it with the command to run."""

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace

import pytest
from sqlalchemy import func, select

from service.archive.storage import Archive, ArchivedGame, ExportFilter
from service.arena.storage import SeriesBook, SeriesGame, SeriesRow
from service.players.ratings import model
from service.players.standings import Ledger, Outcome
from service.sql.database import (
    Database,
    DatabaseRefused,
    DatabaseUnavailable,
    SchemaMismatch,
)
from service.sql.schema import rating_changes, standings
from tests.databases import TestDatabase, migrate


def game(number: int, ended_ms: int, name: str = "cup-the-crab") -> ArchivedGame:
    return ArchivedGame(id=f"contract-{number}", game=name, players=2, seeded=False,
                        reason="finished", created_ms=1, ended_ms=ended_ms, archived_ms=2,
                        version=3, document=f'{{"id":"contract-{number}"}}', state=b"\x01s",
                        meta=b"{}", initial=b"\x01i")


@pytest.fixture(scope="module")
def postgres() -> Iterator[TestDatabase]:
    """A database of this module's own: its made-up games replay to nothing."""
    database = TestDatabase()
    yield database
    database.close()


@pytest.fixture(params=["postgresql", "sqlite"])
def url(request, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        found = f"sqlite:///{tmp_path}/archive.sqlite3"
        migrate(found)
        yield found
    else:
        yield request.getfixturevalue("postgres").url


def run(url: str, scenario):
    async def main():
        archive = Archive(Database(url))
        try:
            await archive.database.prepare(migrate_schema=False)
            return await scenario(archive)
        finally:
            await archive.database.close()
    return asyncio.run(main())


def test_a_game_is_written_once_and_read_back_whole(url):
    async def scenario(archive):
        first = await archive.write([game(1, 10), game(2, 20)])
        again = await archive.write([game(2, 99), game(3, 30)])  # 2 is kept as it was
        return first, again, await archive.get("contract-2"), await archive.get("nope")
    first, again, kept, missing = run(url, scenario)
    assert first == ["contract-1", "contract-2"] and again == ["contract-3"]
    assert kept == game(2, 20) and missing is None


def test_the_export_pages_in_the_order_games_ended_and_filters(url):
    async def scenario(archive):
        await archive.write([game(11, 5_000), game(12, 4_000), game(13, 5_000, "crabe-vs-poulpe")])

        async def ids(where):
            return [found async for _, found, _, _ in archive.export(where)
                    if found in ("contract-11", "contract-12", "contract-13")]
        return (await ids(ExportFilter()), await ids(ExportFilter(after=(5_000, "contract-11"))),
                await ids(ExportFilter(game="crabe-vs-poulpe")),
                await ids(ExportFilter(since_ms=4_500, until_ms=5_001)))
    everything, after, cvp, window = run(url, scenario)
    assert everything == ["contract-12", "contract-11", "contract-13"]
    assert after == ["contract-13"] and cvp == ["contract-13"]
    assert window == ["contract-11", "contract-13"]


def test_retention_forgets_only_games_that_ended_before_the_cutoff(url):
    async def scenario(archive):
        await archive.write([game(21, 100), game(22, 10**12)])
        forgotten = await archive.forget_ended_before(1_000)
        return forgotten, await archive.get("contract-21"), await archive.get("contract-22")
    forgotten, old, recent = run(url, scenario)
    assert forgotten >= 1 and old is None and recent is not None


def test_a_database_without_the_schema_is_refused_with_the_command_to_run(tmp_path):
    async def main():
        archive = Archive(Database(f"sqlite:///{tmp_path}/empty.sqlite3"))
        try:
            await archive.database.prepare(migrate_schema=False)
        finally:
            await archive.database.close()
    with pytest.raises(SchemaMismatch, match="python -m service.archive upgrade"):
        asyncio.run(main())


def test_replicas_that_migrate_one_new_sqlite_file_at_once_all_succeed(tmp_path):
    """SQLite has no advisory lock: the replicas take turns under a file lock beside it."""
    import os
    import subprocess
    import sys

    from service.sql import migrate
    url = f"sqlite:///{tmp_path}/fresh.sqlite3"
    upgrades = [subprocess.Popen([sys.executable, "-m", "service.archive", "upgrade"],
                                 env={**os.environ, "DATABASE_URL": url},
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(4)]
    results = [process.communicate(timeout=120) for process in upgrades]
    assert [process.returncode for process in upgrades] == [0] * 4, results
    assert all(f"revision {migrate.head()}" in out for out, _ in results)


def test_a_series_finishes_only_once_every_game_it_started_has_its_outcome(url):
    """A replica that saw no game of a series in play may have looked just before another
    started the last ones: the book refuses to finish a series with a game unrecorded."""
    async def scenario(archive):
        book = SeriesBook(archive.database)
        row = SeriesRow(id="s_contract", owner="p_owner", game="cup-the-crab", players=2,
                        spec={}, secret="0" * 64, status="running", games_total=2,
                        games_done=0, created_ms=1, finished_ms=None)
        await book.create(row)
        for index in range(2):
            assert await book.start(row.id, SeriesGame(index, 0, index, f"s_contract-{index}",
                                                       2, None, None))
        assert await book.end(row.id, 0, 3, {"ranks": {}})
        early = await book.finish(row.id, 4)
        assert await book.end(row.id, 1, 5, {"ranks": {}})
        twice = await book.end(row.id, 1, 6, {"ranks": {}})
        return early, twice, await book.finish(row.id, 7), await book.finish(row.id, 8), \
            await book.get(row.id)
    early, twice, finished, again, found = run(url, scenario)
    assert (early, twice, finished, again) == (False, False, True, False)
    assert (found.status, found.games_done, found.finished_ms) == ("finished", 2, 7)


def rated_ai_game(number: int) -> ArchivedGame:
    """A rated game between two AI levels, as the drain builds it: every seat a player."""
    document = json.dumps({
        "id": f"ai-only-{number}", "game": "cup-the-crab", "players": 2, "rated": True,
        "seats": [{"seat": 0, "player": "ai-1"}, {"seat": 1, "player": "ai-2"}],
        "result": {"ranking": [{"seat": 1, "rank": 1}, {"seat": 0, "rank": 2}]}})
    return replace(game(number, 40), id=f"ai-only-{number}", document=document)


def test_a_rated_game_between_ai_levels_only_is_archived_and_changes_no_rating(url):
    """The AI levels' ratings are fixed: such a game has no rating change to write (an
    insert of none once made a row of NULLs, refused, and the game was never archived)."""
    async def scenario(archive):
        written = await archive.write([rated_ai_game(1), rated_ai_game(2)])
        changes = await archive.database.run(lambda conn: _count(conn, rating_changes))
        orders = [(await archive.get(f"ai-only-{n}")).rated_order for n in (1, 2)]
        return written, changes, orders
    written, changes, orders = run(url, scenario)
    assert written == ["ai-only-1", "ai-only-2"] and changes == 0
    assert None not in orders and orders[0] != orders[1]  # rated, in their order


async def _count(conn, table) -> int:
    return (await conn.execute(select(func.count()).select_from(table))).scalar_one()


def test_a_record_the_database_refuses_is_told_apart_from_a_database_that_is_down(url):
    async def scenario(archive):
        with pytest.raises(DatabaseRefused, match="reason"):
            await archive.write([replace(game(31, 50), reason=None)])  # NOT NULL
        return await archive.get("contract-31")
    assert run(url, scenario) is None  # nothing written

    async def down():
        archive = Archive(Database("postgresql://postgres@127.0.0.1:9/crab"))  # nothing listens
        try:
            await archive.write([game(32, 50)])
        finally:
            await archive.database.close()
    with pytest.raises(DatabaseUnavailable) as raised:
        asyncio.run(down())
    assert not isinstance(raised.value, DatabaseRefused)


def test_a_game_set_aside_is_listed_and_archived_by_a_retry_once_the_database_takes_it(url):
    async def scenario(archive):
        taken, refused = game(41, 60), replace(game(42, 70), reason=None)
        await archive.set_aside(taken, "refused once", 1_000)
        await archive.set_aside(refused, "refused once", 1_000)
        await archive.set_aside(refused, "refused twice", 2_000)
        listed = await archive.refused()
        retried = await archive.retry_refused(None, 3_000)
        again = await archive.retry_refused(["contract-41"], 4_000)  # archived: none left
        return (listed, retried, again, await archive.refused(), await archive.get("contract-41"),
                await archive.get("contract-42"))
    listed, retried, again, left, archived, aside = run(url, scenario)
    assert [(r.id, r.attempts, r.error) for r in listed] == [
        ("contract-41", 1, "refused once"), ("contract-42", 2, "refused twice")]
    assert retried["contract-41"] is None and "reason" in retried["contract-42"]
    assert again == {}
    assert [(r.id, r.attempts, r.refused_ms) for r in left] == [("contract-42", 3, 3_000)]
    assert archived == game(41, 60)
    assert aside == replace(game(42, 70), reason=None)  # still read back, from where it waits


def rated_game(number: int, game_name: str, seats: list[str], ranks: list[int]) -> ArchivedGame:
    document = json.dumps({
        "id": f"rated-{number}", "game": game_name, "players": len(seats), "rated": True,
        "seats": [{"seat": seat, "player": who} for seat, who in enumerate(seats)],
        "result": {"ranking": [{"seat": seat, "rank": rank} for seat, rank in enumerate(ranks)]}})
    return replace(game(number, 50 + number, game_name), id=f"rated-{number}", players=len(seats),
                   document=document)


def test_rebuild_ratings_moves_an_archive_rated_with_the_anchors_before_issue_31_to_the_new(
        url, tmp_path, monkeypatch):
    """anchors.json keeps the levels' skills of before issue 31 as each pool's
    "references": an archive rated while those were the levels' anchors moves to the new
    anchors with rebuild-ratings --write (the AI levels at their new skill, every player
    rated again against it), and the next rebuild finds nothing left to change."""
    shipped = json.loads(model.ANCHORS.read_text())
    before = {"pools": {name: {**found, "levels": found["references"]}
                        for name, found in shipped["pools"].items()}}
    old = tmp_path / "anchors-before-issue-31.json"
    old.write_text(json.dumps(before))
    archived = [rated_game(1, "cup-the-crab", ["p-ann", "ai-5"], [1, 2]),
                rated_game(2, "cup-the-crab", ["ai-3", "p-ann", "ai-4", "p-bob"], [2, 1, 3, 4]),
                rated_game(3, "crabe-vs-poulpe", ["ai-4", "p-bob"], [1, 2])]
    monkeypatch.setattr(model, "ANCHORS", old)
    model.pools.cache_clear()
    run(url, lambda archive: archive.write(archived))
    monkeypatch.undo()
    model.pools.cache_clear()

    async def rebuilt(archive, write=False):
        return await archive.rebuild_ratings(write)

    replayed, differed = run(url, rebuilt)
    assert differed > 0           # the players, and the levels whose anchor moved
    assert run(url, lambda archive: rebuilt(archive, True)) == (replayed, differed)
    assert run(url, rebuilt) == (replayed, 0)
    ledger = Ledger({})           # the new anchors from the start: what the rebuild gives
    for order, record in enumerate(archived, 1):
        found = json.loads(record.document)
        ledger.rate(Outcome(record.id, record.game, record.players, record.ended_ms, True,
                            [seat["player"] for seat in found["seats"]],
                            [place["rank"] for place in found["result"]["ranking"]]), order)

    async def standing(archive, player, pool):
        return await archive.database.run(lambda conn: _standing_of(conn, player, pool))

    for player, pool in (("p-ann", "cup-the-crab-2p"), ("p-ann", "cup-the-crab-3-5p"),
                         ("p-bob", "crabe-vs-poulpe"), ("ai-5", "cup-the-crab-2p")):
        expected = ledger.get(player, pool)
        found = run(url, lambda archive, who=player, where=pool: standing(archive, who, where))
        assert found == (expected.mu, expected.sigma)
    assert ledger.get("ai-5", "cup-the-crab-2p").mu == model.anchor("cup-the-crab-2p", 5).mu


async def _standing_of(conn, player, pool):
    row = (await conn.execute(select(standings.c.mu, standings.c.sigma).where(
        (standings.c.player_id == player) & (standings.c.pool == pool)))).one()
    return row.mu, row.sigma
