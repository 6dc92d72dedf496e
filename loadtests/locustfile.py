"""Locust users that play whole games through the API, as real clients do.

Each simulated user creates a game (a mix of both games and their player counts), holds
every human seat's token and plays it to the end as that many browser tabs would: each
seat follows the game's event stream (GET .../events, Server-Sent Events) instead of
polling, waits there for its turn (after its own move, the others' and the AI's), and
posts one of the legal moves its last event lists, with expected_version. Every response
is checked: an unexpected status, a stream that skips or repeats a version, a version that
does not advance by exactly one per accepted move, or a game that ends without a result
is a failure. A refusal for now (429 or 503 with Retry-After) is honoured: the user waits
as told and retries, and the refusal is counted apart as BACKOFF, not as a failure. URLs
with ids are grouped under one name per endpoint; the wait from a
move's response to the event that prompts the next move is reported as
"SSE /v1/games/[id]/events (next turn)".

    locust -f loadtests/locustfile.py --host http://127.0.0.1:8000
    python loadtests/run.py --host http://127.0.0.1:8000 ...   (headless, with a verdict)

A share of the games (--ai-share) involve the AI, each way in turn: a human seat
against AI seats the server plays (versions then advance by more than one per human
move: every AI move counts), or a human game whose every move is first asked of
POST .../suggest and then played as suggested.

Options (also as environment variables LOCUST_GAMES, LOCUST_THINK_MS, LOCUST_AI_SHARE...):
  --games "cup-the-crab:2,cup-the-crab:4,crabe-vs-poulpe:2"   the mix, picked uniformly
  --think-ms 0                                                pause between a user's moves
  --ai-share 0.2                                              games that involve the AI
  --ai-games cup-the-crab                                     games the AI can play
  --ai-iterations 200                                         AI seats' and suggestions' budget
"""

import json
import random
import time
import uuid

from locust import FastHttpUser, events, task

DEFAULT_GAMES = ("cup-the-crab:2,cup-the-crab:3,cup-the-crab:4,cup-the-crab:5,"
                 "crabe-vs-poulpe:2")


@events.init_command_line_parser.add_listener
def options(parser) -> None:
    parser.add_argument("--games", env_var="LOCUST_GAMES", default=DEFAULT_GAMES,
                        help="comma-separated game:players mix")
    parser.add_argument("--think-ms", env_var="LOCUST_THINK_MS", type=float, default=0.0,
                        help="pause between a user's moves, in ms")
    parser.add_argument("--ai-share", env_var="LOCUST_AI_SHARE", type=float, default=0.2,
                        help="share of games that involve the AI (0 to 1)")
    parser.add_argument("--ai-games", env_var="LOCUST_AI_GAMES", default="cup-the-crab",
                        help="comma-separated games the server's AI plays")
    parser.add_argument("--ai-iterations", env_var="LOCUST_AI_ITERATIONS", type=int,
                        default=200, help="iterations of AI seats and suggestions")


MAX_RETRIES = 20     # retries of one request the service asked to retry later
MAX_WAIT_SECONDS = 5  # the longest Retry-After honoured as it is


def retry_after(response) -> float | None:
    """Seconds to wait before retrying, when the service refused for now (429 rate-limited,
    503 ai-busy or store-unavailable) and said when; None for any other answer."""
    if response.status_code not in (429, 503):
        return None
    value = response.headers.get("Retry-After")
    if value is None or not value.isdigit():
        return None
    return min(float(value), MAX_WAIT_SECONDS)


class GameFailure(Exception):
    """A response that breaks the API's contract; ends the user's current game."""


class Player(FastHttpUser):
    """One client playing every seat of one game at a time."""

    def on_start(self) -> None:
        mix = self.environment.parsed_options.games
        self.games = [(name, int(players)) for name, players in
                      (entry.strip().split(":") for entry in mix.split(","))]
        options = self.environment.parsed_options
        self.think = options.think_ms / 1000
        self.ai_share = options.ai_share
        self.ai_games = set(options.ai_games.split(","))
        self.ai_budget = {"iterations": options.ai_iterations}
        self.ai_games_played = 0  # a user's AI games alternate: suggestions first, then AI seats

    def call(self, method: str, path: str, name: str, expect: int, token: str | None = None,
             body: dict | None = None) -> dict:
        """The response's body; a 429 or 503 with Retry-After is retried after it, as real
        clients must, and counted apart (BACKOFF) rather than as a failure. A move carries
        an Idempotency-Key, so that a retry of one the store applied but whose answer was
        lost (a 503 in a failover) gets its first response, not a version conflict."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if method == "POST" and path.endswith("/moves"):
            headers["Idempotency-Key"] = uuid.uuid4().hex
        for _ in range(MAX_RETRIES + 1):
            with self.client.request(method, path, name=name, json=body, headers=headers,
                                     catch_response=True) as response:
                wait = retry_after(response)
                if wait is not None:
                    response.request_meta["request_type"] = "BACKOFF"
                    response.request_meta["name"] = f"{method} {name} ({response.status_code})"
                    response.success()
                elif response.status_code != expect:
                    response.failure(f"{method} {name}: {response.status_code}, want {expect}:"
                                     f" {response.text[:200]}")
                    raise GameFailure(name)
                else:
                    return response.json()
            time.sleep(wait)
        self.check(False, f"{method} {name}: still refused after {MAX_RETRIES} retries")
        raise GameFailure(name)  # check raised already; this keeps the type checker told

    @task
    def play_a_game(self) -> None:
        game, players = random.choice(self.games)
        with_ai = game in self.ai_games and random.random() < self.ai_share
        against_ai = with_ai and self.ai_games_played % 2 == 1
        self.ai_games_played += with_ai
        body = {"game": game, "players": players}
        if against_ai:
            body["seats"] = [{"type": "human"}] + [{"type": "ai", **self.ai_budget}] * (players - 1)
        try:
            created = self.call("POST", "/v1/games", "/v1/games", 201, body=body)
            self.play(created, suggest=with_ai and not against_ai)
        except GameFailure:
            pass

    def play(self, created: dict, suggest: bool) -> None:
        path = f"/v1/games/{created['id']}"
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}
        streams: dict[int, EventStream] = {}
        try:
            for seat, token in tokens.items():
                streams[seat] = EventStream(self, path, token)
            self.play_on(path, tokens, streams, suggest)
        finally:
            for stream in streams.values():
                stream.close()

    def play_on(self, path: str, tokens: dict[int, str], streams: dict[int, "EventStream"],
                suggest: bool) -> None:
        version, moved_at = 0, None
        while True:
            games = {seat: stream.next_turn(version, set(tokens))
                     for seat, stream in streams.items()}
            game = next(iter(games.values()))
            self.check(all(g["version"] == game["version"] for g in games.values()),
                       "the seats' streams stopped at different versions")
            if moved_at is not None:
                events.request.fire(request_type="SSE", name="/v1/games/[id]/events (next turn)",
                                    response_time=(time.perf_counter() - moved_at) * 1000,
                                    response_length=0, exception=None, context={})
            if game["status"] == "over":
                self.finish(path, game, game["version"])
                return
            seat = random.choice([seat for seat in game["to_move"] if seat in tokens])
            view = games[seat]
            move = random.choice(view["legal_moves"])
            if suggest:
                move = self.call("POST", f"{path}/suggest", "/v1/games/[id]/suggest", 200,
                                 tokens[seat], self.ai_budget)["move"]
                self.check(move in view["legal_moves"], "the AI suggested an illegal move")
            after = self.call("POST", f"{path}/moves", "/v1/games/[id]/moves", 200, tokens[seat],
                              {"move": move, "expected_version": view["version"]})
            moved_at = time.perf_counter()
            self.check(after["version"] == view["version"] + 1,
                       f"a move took version {view['version']} to {after['version']}")
            version = after["version"]
            if self.think:
                time.sleep(self.think)

    def finish(self, path: str, spectator: dict, version: int) -> None:
        self.check(spectator["result"] is not None, "the game ended without a result")
        history = self.call("GET", f"{path}/history", "/v1/games/[id]/history", 200)
        self.check(len(history["entries"]) == version, "the history lost or gained moves")

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            events.request.fire(request_type="CHECK", name="consistency", response_time=0,
                                response_length=0, exception=GameFailure(what), context={})
            raise GameFailure(what)


class EventStream:
    """One seat's event stream, read as a browser's EventSource reads it."""

    def __init__(self, user: Player, path: str, token: str) -> None:
        self.user = user
        self.response = user.client.request("GET", f"{path}/events", name="/v1/games/[id]/events",
                                            headers={"Authorization": f"Bearer {token}"},
                                            stream=True)
        user.check(self.response.status_code == 200,
                   f"the event stream answered {self.response.status_code}")
        self.version: int | None = None

    def next_turn(self, version: int, humans: set[int]) -> dict:
        """The seat's game once it is at version or later and only human seats are to
        move (the server plays AI seats until then) or the game is over: what a frontend
        waits for."""
        while True:
            game = self.next_event()["game"]
            if game["version"] >= version and (game["status"] == "over"
                                               or set(game["to_move"]) <= humans):
                return game

    def next_event(self) -> dict:
        data = None
        while True:
            # geventhttpclient's readline returns each line as it arrives (locust's
            # iter_content would wait for a whole chunk of bytes)
            line = self.response._response.readline(b"\n").rstrip(b"\r\n")
            if line.startswith(b"data: "):
                data = line[6:]
            elif line == b"" and data is not None:
                event = json.loads(data)
                self.user.check(self.version is None or event["version"] == self.version + 1,
                                f"the stream went from version {self.version} to"
                                f" {event['version']}")
                self.version = event["version"]
                return event
            elif line == b"" and self.response._response.message_complete:
                self.user.check(False, "the stream ended before the game was over")

    def close(self) -> None:
        self.response._response.release()  # closes the socket unless the stream was read to its end
