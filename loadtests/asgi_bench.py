"""The app's own cost per request, without sockets, Redis or a load generator.

    python loadtests/asgi_bench.py [--tree DIR] [--requests 20000] [--runs 5]

Builds the app of this checkout (or of DIR, an earlier commit's worktree with its core
compiled) on the embedded store, plays a 2-player Cup the Crab game into its play phase,
then calls the ASGI app directly, in one event loop, and prints the median CPU time per
request (microseconds) of: a seat's GET view, the same GET with If-None-Match when the
app sends ETags, and a POST move (a legal first move of a fresh game each time). What it
measures is Litestar's and our work per request: what a profile of the server attributes
to them, with none of the machine's other load in the figure.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scope(method: str, path: str, headers: dict[str, str]) -> dict:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "", "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 5000),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}


async def call(app, method: str, path: str, headers: dict[str, str], body: bytes = b""):
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await app(scope(method, path, {"content-length": str(len(body)), **headers}), receive,
              send)
    start = sent[0]
    return start["status"], dict((k.decode(), v.decode()) for k, v in start["headers"]), \
        b"".join(m.get("body", b"") for m in sent[1:])


async def new_game(app) -> tuple[str, list[str]]:
    status, _, body = await call(app, "POST", "/v1/games", {"content-type": "application/json"},
                                 b'{"game": "cup-the-crab", "players": 2}')
    created = json.loads(body)
    return created["id"], [seat["token"] for seat in created["seats"]]


async def first_move(app, game_id: str, token: str) -> bytes:
    _, _, body = await call(app, "GET", f"/v1/games/{game_id}", {"authorization": f"Bearer {token}"})
    return json.dumps({"move": json.loads(body)["legal_moves"][0]}).encode()


async def timed(requests: int, make) -> float:
    """Median-ready CPU microseconds per request of `await make()` called `requests` times."""
    start = time.process_time()
    for _ in range(requests):
        await make()
    return 1e6 * (time.process_time() - start) / requests


async def measure(app, requests: int) -> dict[str, float]:
    game_id, tokens = await new_game(app)
    for token in tokens:  # both select: a view of the play phase
        body = await first_move(app, game_id, token)
        await call(app, "POST", f"/v1/games/{game_id}/moves",
                   {"authorization": f"Bearer {token}", "content-type": "application/json"},
                   body)
    read = {"authorization": f"Bearer {tokens[0]}"}
    status, headers, _ = await call(app, "GET", f"/v1/games/{game_id}", read)
    assert status == 200
    figures = {"GET view": await timed(requests, lambda: call(
        app, "GET", f"/v1/games/{game_id}", read))}
    if "etag" in headers:
        conditional = {**read, "if-none-match": headers["etag"]}
        assert (await call(app, "GET", f"/v1/games/{game_id}", conditional))[0] == 304
        figures["GET view, 304"] = await timed(requests, lambda: call(
            app, "GET", f"/v1/games/{game_id}", conditional))
    moves = []
    for _ in range(requests // 10):
        game_id, tokens = await new_game(app)
        moves.append((game_id, tokens[0], await first_move(app, game_id, tokens[0])))
    pending = iter(moves)

    async def move():
        game_id, token, body = next(pending)
        status, _, _ = await call(app, "POST", f"/v1/games/{game_id}/moves", {
            "authorization": f"Bearer {token}", "content-type": "application/json"}, body)
        assert status == 200
    figures["POST move"] = await timed(len(moves), move)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    # No access log, no rate limits (this one client creates thousands of games); a tree
    # older than a setting ignores its variable.
    os.environ.update({"ACCESS_LOG": "0", "RATE_LIMIT_CREATES_PER_MINUTE": "0",
                       "RATE_LIMIT_MOVES_PER_SECOND": "0"})
    os.environ.pop("REDIS_URL", None)
    from service.app import create_app
    from service.config import Settings

    app = create_app(Settings.from_env())
    runs = [asyncio.run(measure(app, args.requests)) for _ in range(args.runs)]
    print(f"# {args.tree}: CPU us per request, median of {args.runs} runs of"
          f" {args.requests} requests (moves: a tenth as many)")
    for name in runs[0]:
        print(f"{name:16} {statistics.median(run[name] for run in runs):7.1f} us")


if __name__ == "__main__":
    main()
