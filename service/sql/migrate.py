"""Versioned migrations of the archive's schema (Alembic, scripts in migrations/versions).

`python -m service.archive upgrade` applies them; the service checks the revision at
start-up (Archive.prepare) and, unless ARCHIVE_MIGRATE=check, applies them itself.
"""

import asyncio
import fcntl
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

SCRIPTS = Path(__file__).resolve().parent / "migrations"


def config(url: str) -> Config:
    """Alembic's configuration for the database at url (an async driver's URL)."""
    settings = Config()
    settings.set_main_option("script_location", str(SCRIPTS))
    settings.attributes["url"] = url
    return settings


def head() -> str:
    """The revision this service's schema is at."""
    found = ScriptDirectory.from_config(config("")).get_current_head()
    assert found is not None, "migrations/versions holds no revision"
    return found


def revision_of(connection: Any) -> str | None:
    """The revision a database's schema is at (None: no schema yet); run_sync's target."""
    return MigrationContext.configure(connection).get_current_revision()


async def upgrade(url: str) -> None:
    """Applies every migration the database lacks. Alembic runs its own event loop
    (migrations/env.py), so it runs in a thread of its own."""
    await asyncio.to_thread(_upgrade_in_turn, url)


def _upgrade_in_turn(url: str) -> None:
    """Replicas that start together all upgrade, one at a time: on PostgreSQL under an
    advisory lock (migrations/env.py); on a SQLite file, which has none, under an
    exclusive lock of a file beside it. Whoever comes second finds nothing left to do."""
    scheme, _, path = url.partition(":///")
    if not scheme.startswith("sqlite") or not path or path.startswith(":memory:"):
        command.upgrade(config(url), "head")
        return
    with open(f"{path.split('?')[0]}.migrating", "a") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        command.upgrade(config(url), "head")
