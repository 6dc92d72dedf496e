"""Reading the archive back in tests: waiting for the outbox, and playing every archived
game again in the core."""

import asyncio
import time

import httpx
import msgspec

import core
from service.archive.replay import replayed
from service.archive.storage import Archive, ExportFilter
from service.sql.database import Database
from tests.service.servers import Server


def drained(base_url: str, seconds: float = 30.0) -> dict:
    """/ready's archive once no finished game waits for it."""
    deadline = time.monotonic() + seconds
    while True:
        archive = httpx.get(f"{base_url}/ready", timeout=5).json()["archive"]
        if archive["outbox_depth"] == 0 or time.monotonic() > deadline:
            assert archive["outbox_depth"] == 0, f"the archive did not drain: {archive}"
            return archive
        time.sleep(0.1)


def expected_result(state: core.GameState, document: dict) -> dict:
    """The result the core gives the replayed state, as the archive writes it."""
    forfeited = document["result"].get("forfeited") or []
    resigned = document["result"].get("resigned") or []
    if forfeited:
        result, reason = state.forfeit_result(sorted({*forfeited, *resigned})), "forfeit"
    elif resigned:  # resigned seats rank last, whether or not the game was played out
        result, reason = state.forfeit_result(resigned), "resigned"
    else:
        result, reason = state.result(), "finished"
    assert result is not None, f"{document['id']} replays to a game that is not over"
    return {**result, "reason": reason, "forfeited": forfeited, "resigned": resigned}


async def _replay_all(url: str) -> int:
    archive = Archive(Database(url))
    count = 0
    try:
        async for _, game_id, raw, _ in archive.export(ExportFilter()):
            document = msgspec.json.decode(raw)
            row = await archive.get(game_id)
            state, versions = replayed(row.initial, document["entries"])
            assert state.snapshot() == core.from_bytes(row.state).snapshot(), \
                f"{game_id} does not replay to its archived position"
            assert expected_result(state, document) == document["result"], game_id
            assert len(versions) == document["version"] + 1 == row.version + 1
            count += 1
    finally:
        await archive.database.close()
    return count


def replay_every_archived_game(server: Server) -> int:
    """Plays every game in server's archive again from its first state; how many. Each
    must reach its archived position and result."""
    drained(server.url)
    return asyncio.run(_replay_all(server.database_url))


def archived_by(server: Server) -> int:
    """How many games server wrote to its archive (its metrics say)."""
    return sum(int(float(line.split()[-1])) for line in server.metrics().splitlines()
               if line.startswith("crab_archive_games_written_total "))
