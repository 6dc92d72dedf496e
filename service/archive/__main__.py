"""`python -m service.archive upgrade|check|count|rebuild-ratings`: the archive's schema
and contents.

The database is DATABASE_URL's (a SQLite file when it is unset, as for the service).
"""

import argparse
import asyncio
import sys
import time

from service.archive import migrate
from service.archive.database import Archive, ArchiveUnavailable, SchemaMismatch
from service.config import ConfigError, Settings


async def _main(action: str, url: str, write: bool = False) -> str:
    archive = Archive(url, command_timeout=None)  # a rebuild's statements run for minutes
    try:
        if action == "upgrade":
            await archive.prepare(migrate_schema=True)
            return f"the archive's schema is at revision {migrate.head()}"
        await archive.prepare(migrate_schema=False)
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
        return f"{await archive.count()} games archived"
    finally:
        await archive.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m service.archive",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["upgrade", "check", "count", "rebuild-ratings"],
                        help="upgrade: apply the migrations the database lacks; check: fail"
                             " unless the schema is this service's; count: games archived;"
                             " rebuild-ratings: compute every rating again from the rated"
                             " games in their order, and say how many differed")
    parser.add_argument("--write", action="store_true",
                        help="rebuild-ratings: replace the live ratings with the rebuilt ones"
                             " (after a change of the model; they are equal otherwise)")
    args = parser.parse_args(argv)
    try:
        url = Settings.from_env().database_url
        print(asyncio.run(_main(args.action, url, args.write)))
    except (ConfigError, SchemaMismatch, ArchiveUnavailable, ValueError) as error:
        sys.exit(f"service.archive: {error}")


if __name__ == "__main__":
    main()
