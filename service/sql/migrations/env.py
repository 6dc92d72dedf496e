"""Alembic's entry point: runs the migrations on the URL service.sql.migrate passes."""

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from service.sql.schema import metadata

# Replicas that start together all upgrade: on PostgreSQL one holds this advisory lock
# while it migrates and the others wait, then find nothing left to do.
MIGRATION_LOCK = 7_305_420_001


def run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        context.run_migrations()


async def main() -> None:
    engine = create_async_engine(context.config.attributes["url"])
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run)
            await connection.commit()
    finally:
        await engine.dispose()


asyncio.run(main())
