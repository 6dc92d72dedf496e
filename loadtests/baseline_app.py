"""The benchmark's yardstick (not part of the product): HTTP + Redis and nothing else.

A minimal Litestar app whose endpoints do what the game endpoints cannot avoid doing, a
Redis GET (and SET) of a blob the size of a stored game, with no rules and no checks.
Run by loadtests/http_bench.py with the same uvicorn settings as the service.
"""

import os

import redis.asyncio as redis
from litestar import Litestar, get, post

BLOB = b"\x01" * int(os.environ.get("BASELINE_BLOB_BYTES", "160"))
client = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/12"))


@get("/baseline/{key:str}")
async def read(key: str) -> dict[str, object]:
    blob = await client.get(f"baseline:{{{key}}}")
    return {"key": key, "size": len(blob or b"")}


@post("/baseline/{key:str}", status_code=200)
async def write(key: str, data: dict[str, object]) -> dict[str, object]:
    blob = await client.get(f"baseline:{{{key}}}")
    await client.set(f"baseline:{{{key}}}", BLOB, ex=600)
    return {"key": key, "size": len(blob or b""), "fields": len(data)}


def create_app() -> Litestar:
    return Litestar([read, write], logging_config=None)
