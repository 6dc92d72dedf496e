"""`python -m service.archive upgrade|check|count`: the archive's schema and contents.

The database is DATABASE_URL's (a SQLite file when it is unset, as for the service).
"""

import argparse
import asyncio
import sys

from service.archive import migrate
from service.archive.database import Archive, ArchiveUnavailable, SchemaMismatch
from service.config import ConfigError, Settings


async def _main(action: str, url: str) -> str:
    archive = Archive(url)
    try:
        if action == "upgrade":
            await archive.prepare(migrate_schema=True)
            return f"the archive's schema is at revision {migrate.head()}"
        await archive.prepare(migrate_schema=False)
        if action == "check":
            return f"the archive's schema is at revision {migrate.head()}, as this service needs"
        return f"{await archive.count()} games archived"
    finally:
        await archive.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m service.archive",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["upgrade", "check", "count"],
                        help="upgrade: apply the migrations the database lacks; check: fail"
                             " unless the schema is this service's; count: games archived")
    args = parser.parse_args(argv)
    try:
        url = Settings.from_env().database_url
        print(asyncio.run(_main(args.action, url)))
    except (ConfigError, SchemaMismatch, ArchiveUnavailable, ValueError) as error:
        sys.exit(f"service.archive: {error}")


if __name__ == "__main__":
    main()
