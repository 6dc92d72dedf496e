"""`python -m service.archive upgrade|check|count|rebuild-ratings|refused|retry`: the
archive's schema and contents.

The database is DATABASE_URL's (a SQLite file when it is unset, as for the service).
"""

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime

from service.archive.storage import Archive, Refused
from service.config import ConfigError, Settings
from service.sql import migrate
from service.sql.database import Database, DatabaseUnavailable, SchemaMismatch


class StillRefused(Exception):
    """A retry the database refused again: the command fails, saying which and why."""


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _listed(games: list[Refused]) -> str:
    if not games:
        return "no finished game is set aside: the database refused none"
    return "\n".join(f"{game.id}  ended {_when(game.ended_ms)}  refused {_when(game.refused_ms)}"
                     f"  attempts {game.attempts}  {game.error.splitlines()[0][:200]}"
                     for game in games) + f"\n{len(games)} finished games set aside"


async def _retried(archive: Archive, ids: list[str]) -> str:
    outcome = await archive.retry_refused(ids or None, int(time.time() * 1000))
    missing = [game_id for game_id in ids if game_id not in outcome]
    lines = [f"{game_id}: archived" if error is None else f"{game_id}: refused again: {error}"
             for game_id, error in outcome.items()]
    lines += [f"{game_id}: not set aside" for game_id in missing]
    report = "\n".join(lines) or "no finished game is set aside: nothing to retry"
    if missing or any(error is not None for error in outcome.values()):
        raise StillRefused(report)
    return report


async def _main(action: str, url: str, write: bool = False, ids: list[str] | None = None) -> str:
    archive = Archive(Database(url, command_timeout=None))  # a rebuild's statements run for minutes
    try:
        if action == "upgrade":
            await archive.database.prepare(migrate_schema=True)
            return f"the archive's schema is at revision {migrate.head()}"
        await archive.database.prepare(migrate_schema=False)
        if action == "check":
            return f"the archive's schema is at revision {migrate.head()}, as this service needs"
        if action == "rebuild-ratings":
            started = time.perf_counter()
            replayed, differed = await archive.rebuild_ratings(write)
            seconds = time.perf_counter() - started
            return (f"{replayed} rated games replayed in {seconds:.2f} s"
                    f" ({replayed / max(seconds, 1e-9):,.0f} games/s); {differed} standings"
                    f" differed from the live ratings"
                    + ("; the rebuilt ones replace them" if write else ""))
        if action == "refused":
            return _listed(await archive.refused())
        if action == "retry":
            return await _retried(archive, ids or [])
        return f"{await archive.count()} games archived"
    finally:
        await archive.database.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m service.archive",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["upgrade", "check", "count", "rebuild-ratings",
                                           "refused", "retry"],
                        help="upgrade: apply the migrations the database lacks; check: fail"
                             " unless the schema is this service's; count: games archived;"
                             " rebuild-ratings: compute every rating again from the rated"
                             " games in their order, and say how many differed; refused:"
                             " list the finished games the database refused, set aside;"
                             " retry: write them again (those named, else all)")
    parser.add_argument("ids", nargs="*", metavar="GAME_ID",
                        help="retry: the games to write again (default: every one set aside)")
    parser.add_argument("--write", action="store_true",
                        help="rebuild-ratings: replace the live ratings with the rebuilt ones"
                             " (after a change of the model; they are equal otherwise)")
    args = parser.parse_args(argv)
    try:
        url = Settings.from_env().database_url
        if args.ids and args.action != "retry":
            parser.error("only retry takes game ids")
        print(asyncio.run(_main(args.action, url, args.write, args.ids)))
    except StillRefused as error:
        print(error)
        sys.exit(1)
    except (ConfigError, SchemaMismatch, DatabaseUnavailable, ValueError) as error:
        sys.exit(f"service.archive: {error}")


if __name__ == "__main__":
    main()
