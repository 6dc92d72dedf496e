"""The archive's database contract, the same on PostgreSQL and SQLite: a game is written
once, read back whole, exported in the order games ended, forgotten by retention, and a
schema that is not this service's stops it with the command to run."""

import asyncio
from collections.abc import Iterator

import pytest

from service.archive import Archive, ArchivedGame, ExportFilter, SchemaMismatch
from service.archive.series import SeriesBook, SeriesGame, SeriesRow
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
        archive = Archive(url)
        try:
            await archive.prepare(migrate_schema=False)
            return await scenario(archive)
        finally:
            await archive.close()
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
        archive = Archive(f"sqlite:///{tmp_path}/empty.sqlite3")
        try:
            await archive.prepare(migrate_schema=False)
        finally:
            await archive.close()
    with pytest.raises(SchemaMismatch, match="python -m service.archive upgrade"):
        asyncio.run(main())


def test_replicas_that_migrate_one_new_sqlite_file_at_once_all_succeed(tmp_path):
    """SQLite has no advisory lock: the replicas take turns under a file lock beside it."""
    import os
    import subprocess
    import sys

    from service.archive import migrate
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
        book = SeriesBook(archive)
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
