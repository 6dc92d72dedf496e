"""An example bot for the crab engines' arena, through the documented HTTP API only.

It registers (or reuses) a bot player, follows its one event stream
(GET /v1/players/me/events), accepts the challenges it is sent, plays every game it is
seated in through that game's own event stream, and can start a series of its own and
print the crosstable when the series is over. It imports nothing of the service: httpx
and the standard library (and, for --policy ai, the engine's core package).

    python examples/bot.py --url http://127.0.0.1:8000 --name my-bot
    python examples/bot.py --url ... --key crab_pk_... --series ai-3 --game cup-the-crab \\
        --deals 200

Policies: `random` (a uniformly random legal move: any game), `first` (the first legal
move listed), `ai` (core.ai at --level, from a position drawn from the seat's view:
core.sample_from_view). Every decision is made from the game event's body: the seat's
view and its legal moves.
"""

import argparse
import asyncio
import json
import logging
import random
import sys
from collections.abc import AsyncIterator
from typing import Any

import httpx

log = logging.getLogger("bot")

RECONNECT_SECONDS = (0.2, 0.5, 1, 2, 5)   # growing pauses between reconnections


async def sse(client: httpx.AsyncClient, path: str, token: str,
              last_id: str | None = None) -> AsyncIterator[tuple[str | None, str, dict]]:
    """(id, event, data) of a Server-Sent Event stream; returns when the server ends it."""
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    if last_id is not None:
        headers["Last-Event-ID"] = last_id
    async with client.stream("GET", path, headers=headers, timeout=httpx.Timeout(
            10, read=60)) as response:
        if response.status_code != 200:
            body = await response.aread()
            raise RuntimeError(f"GET {path}: {response.status_code} {body[:300]!r}")
        event_id, kind, data = None, "message", []
        async for line in response.aiter_lines():
            if line == "":
                if data:
                    yield event_id, kind, json.loads("\n".join(data))
                event_id, kind, data = None, "message", []
            elif line.startswith(":"):
                continue  # a comment: keep-alive
            else:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "id":
                    event_id = value
                elif field == "event":
                    kind = value
                elif field == "data":
                    data.append(value)


class Policy:
    """Chooses a move from a game event's body (the seat's view and legal moves)."""

    def __init__(self, name: str, level: int, seed: int | None) -> None:
        self.name, self.level = name, level
        self.rng = random.Random(seed)

    def choose(self, body: dict[str, Any]) -> dict[str, Any]:
        legal = body["legal_moves"]
        if self.name == "first" or len(legal) == 1:
            return legal[0]
        if self.name == "ai":
            import core  # only this policy needs the engine
            import core.ai
            state = core.sample_from_view(body["view"], seed=self.rng.getrandbits(63))
            return core.ai.suggest(state, body["you"], level=self.level,
                                   seed=self.rng.getrandbits(63))["move"]
        return self.rng.choice(legal)


class Bot:
    def __init__(self, url: str, key: str, policy: Policy, accept: bool) -> None:
        self.client = httpx.AsyncClient(base_url=url, timeout=30)
        self.key, self.policy, self.accept = key, policy, accept
        self.playing: dict[str, asyncio.Task] = {}
        self.finished: dict[str, dict] = {}   # series id -> its series_finished event
        self.moves = 0

    @staticmethod
    async def register(url: str, name: str) -> tuple[str, str]:
        async with httpx.AsyncClient(base_url=url) as client:
            answer = await client.post("/v1/players", json={"name": name, "kind": "bot"})
            answer.raise_for_status()
            made = answer.json()
            return made["id"], made["key"]

    async def follow(self) -> None:
        """The bot's stream, for ever: reconnects and resumes after the last event."""
        last_id, attempt = None, 0
        while True:
            try:
                async for event_id, kind, data in sse(self.client, "/v1/players/me/events",
                                                      self.key, last_id):
                    attempt = 0
                    await self.on_event(kind, data)
                    last_id = event_id or last_id
            except (httpx.HTTPError, RuntimeError) as error:
                log.warning("stream interrupted (%s); reconnecting", error)
            await asyncio.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            attempt += 1

    async def on_event(self, kind: str, data: dict) -> None:
        if kind == "challenge" and self.accept:
            challenge = data["challenge"]
            answer = await self.client.post(f"/v1/challenges/{challenge['id']}/accept",
                                            headers={"Authorization": f"Bearer {self.key}"})
            log.info("accepted challenge %s: %s", challenge["id"], answer.status_code)
        elif kind == "game_started" and data["game_id"] not in self.playing:
            self.playing[data["game_id"]] = asyncio.create_task(
                self.play(data["game_id"], data["seat"], data["token"]))
        elif kind == "series_finished":
            self.finished[data["series"]] = data
        elif kind in ("game_ended", "series_progress"):
            log.debug("%s %s", kind, data)

    async def play(self, game_id: str, seat: int, token: str) -> None:
        """One game, to its end: a move whenever the game's stream says it is ours."""
        try:
            await self._play(game_id, seat, token)
        except Exception:  # a task's error is nobody's to see unless it is logged
            log.exception("game %s: the bot stopped playing it", game_id)

    async def _play(self, game_id: str, seat: int, token: str) -> None:
        last_id = None
        for attempt in range(20):
            try:
                async for event_id, kind, data in sse(self.client, f"/v1/games/{game_id}/events",
                                                      token, last_id):
                    last_id = event_id or last_id
                    body = data.get("game") if kind == "game" else None
                    if body is None:
                        continue
                    if body["status"] == "over":
                        return
                    if body["status"] == "active" and seat in body["to_move"] and \
                            body["legal_moves"]:
                        await self.move(game_id, token, body)
                return
            except (httpx.HTTPError, RuntimeError) as error:
                log.warning("game %s stream interrupted (%s)", game_id, error)
                await asyncio.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])

    async def move(self, game_id: str, token: str, body: dict) -> None:
        move = await asyncio.to_thread(self.policy.choose, body)
        answer = await self.client.post(
            f"/v1/games/{game_id}/moves", headers={"Authorization": f"Bearer {token}"},
            json={"move": move, "expected_version": body["version"]})
        if answer.status_code == 200:
            self.moves += 1
        elif answer.status_code not in (409, 422):  # moved on meanwhile: the next event tells
            log.warning("move in %s: %s %s", game_id, answer.status_code, answer.text[:200])

    async def start_series(self, me: str, opponent: str, game: str, players: int, deals: int,
                           duplicate: bool, turn_seconds: int) -> str:
        answer = await self.client.post("/v1/series", headers={
            "Authorization": f"Bearer {self.key}"}, json={
            "game": game, "players": players, "contestants": [me, opponent], "deals": deals,
            "duplicate": duplicate, "turn_seconds": turn_seconds})
        answer.raise_for_status()
        return answer.json()["id"]

    async def close(self) -> None:
        await self.client.aclose()


def report(series: dict) -> str:
    names = [c["name"] for c in series["contestants"]]
    lines = [f"series {series['id']}: {series['games_done']}/{series['games_total']} games,"
             f" {series['status']}"]
    for cell in series["crosstable"]:
        paired, unpaired = cell["paired_difference"], cell["difference"]
        lines.append(f"  {names[cell['a']]} vs {names[cell['b']]}: score {cell['score']},"
                     f" paired difference {paired['mean']:+.3f} [{paired['low']}, {paired['high']}]"
                     f" over {cell['deals']} deals, unpaired {unpaired['mean']:+.3f}"
                     f" [{unpaired['low']}, {unpaired['high']}], variance ratio"
                     f" {cell['variance_ratio']}")
    for contestant in series["contestants"]:
        latency = contestant["latency"]
        lines.append(f"  {contestant['name']}: {latency['moves']} moves, p50"
                     f" {latency['p50_ms']} ms, p99 {latency['p99_ms']} ms,"
                     f" {latency['timeouts']} timeouts")
    return "\n".join(lines)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--key", help="the bot's player key (default: register a new bot)")
    parser.add_argument("--name", default="example-bot")
    parser.add_argument("--policy", choices=("random", "first", "ai"), default="random")
    parser.add_argument("--level", type=int, default=2, help="core.ai's level (--policy ai)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-accept", action="store_true", help="accept no challenge")
    parser.add_argument("--series", metavar="OPPONENT",
                        help="start a series against this player id or AI level (ai-3)")
    parser.add_argument("--game", default="cup-the-crab")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--no-duplicate", action="store_true")
    parser.add_argument("--turn-seconds", type=int, default=10)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s bot %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    key = args.key
    if key is None:
        me, key = await Bot.register(args.url, args.name)
        print(json.dumps({"id": me, "key": key}), flush=True)
    bot = Bot(args.url, key, Policy(args.policy, args.level, args.seed), not args.no_accept)
    stream = asyncio.create_task(bot.follow())
    try:
        if args.series is None:
            await stream
            return 0
        me = (await bot.client.get("/v1/players/me",
                                   headers={"Authorization": f"Bearer {key}"})).json()["id"]
        series_id = await bot.start_series(me, args.series, args.game, args.players,
                                           args.deals, not args.no_duplicate, args.turn_seconds)
        print(json.dumps({"series": series_id}), flush=True)
        while series_id not in bot.finished:
            await asyncio.sleep(0.5)
        series = (await bot.client.get(f"/v1/series/{series_id}")).json()
        print(report(series), flush=True)
        return 0
    finally:
        stream.cancel()
        await bot.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
