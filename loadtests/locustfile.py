"""Locust users that play whole games through the API, as real clients do.

Each simulated user creates a game (a mix of both games and their player counts), holds
every seat's token, and plays it to the end: it reads the spectator view to see who is to
move, reads that seat's view, and posts one of its legal moves with expected_version.
Every response is checked: an unexpected status, a version that does not advance by
exactly one per accepted move, or a game that ends without a result is a failure.
URLs with ids are grouped under one name per endpoint.

    locust -f loadtests/locustfile.py --host http://127.0.0.1:8000
    python loadtests/run.py --host http://127.0.0.1:8000 ...   (headless, with a verdict)

A share of the games (--ai-share) involve the AI, half of them each way: a human seat
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

import random
import time

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

    def call(self, method: str, path: str, name: str, expect: int, token: str | None = None,
             body: dict | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with self.client.request(method, path, name=name, json=body, headers=headers,
                                 catch_response=True) as response:
            if response.status_code != expect:
                response.failure(f"{method} {name}: {response.status_code}, want {expect}:"
                                 f" {response.text[:200]}")
                raise GameFailure(name)
            return response.json()

    @task
    def play_a_game(self) -> None:
        game, players = random.choice(self.games)
        with_ai = game in self.ai_games and random.random() < self.ai_share
        against_ai = with_ai and random.random() < 0.5
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
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if "token" in seat}
        version = None
        while True:
            spectator = self.call("GET", path, "/v1/games/[id]", 200)
            if spectator["status"] == "over":
                self.finish(path, spectator, spectator["version"])
                return
            seat = random.choice(spectator["to_move"])
            self.check(seat in tokens, f"seat {seat}, an AI seat, is left to move")
            view = self.call("GET", path, "/v1/games/[id] (seat)", 200, tokens[seat])
            self.check(version is None or view["version"] >= version,
                       f"the version went back from {version} to {view['version']}")
            move = random.choice(view["legal_moves"])
            if suggest:
                move = self.call("POST", f"{path}/suggest", "/v1/games/[id]/suggest", 200,
                                 tokens[seat], self.ai_budget)["move"]
                self.check(move in view["legal_moves"], "the AI suggested an illegal move")
            after = self.call("POST", f"{path}/moves", "/v1/games/[id]/moves", 200, tokens[seat],
                              {"move": move, "expected_version": view["version"]})
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
