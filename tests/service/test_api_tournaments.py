"""Tournaments over the API: entry before the start, Swiss and round robin pairings
played out by the server with bots and AI levels, standings with tie-breaks read with an
ETag and followed on a resumable stream, typed errors that change nothing, and a
tournament that outlives the replica running it, every game played and archived once."""

import json
import sys
import time
from collections import Counter
from itertools import combinations

import httpx

from service.tournaments.bodies import TournamentBody, TournamentGames
from tests.databases import psql
from tests.processes import Process
from tests.service.play import auth
from tests.service.servers import ROOT, SHARED_REDIS, server, wait_until
from tests.service.test_api_players import new_player
from tests.service.test_bodies_exact import assert_exact

CUP = {"game": "cup-the-crab", "players": 2}


def make(client: httpx.Client, owner: dict, **spec) -> dict:
    response = client.post("/v1/tournaments", json={**CUP, "entry_seconds": 600, **spec},
                           headers=auth(owner["key"]))
    assert response.status_code == 201, response.text
    assert_exact(response.json(), TournamentBody)
    return response.json()


def start(client: httpx.Client, owner: dict, tournament: dict) -> dict:
    response = client.post(f"/v1/tournaments/{tournament['id']}/start",
                           headers=auth(owner["key"]))
    assert response.status_code == 200, response.text
    return response.json()


def finished(client: httpx.Client, tournament_id: str, seconds: float = 180) -> dict:
    deadline = time.monotonic() + seconds
    while (found := client.get(f"/v1/tournaments/{tournament_id}").json())["status"] in (
            "entry", "running"):
        assert time.monotonic() < deadline, f"unfinished: round {found['round']}"
        time.sleep(0.2)
    assert_exact(found, TournamentBody)
    return found


def games_of(client: httpx.Client, tournament: dict) -> list[dict]:
    found, url = [], tournament["games"]
    while url:
        page = client.get(url).json()
        assert_exact(page, TournamentGames)
        found.extend(page["games"])
        url = page["next"]
    return found


def tables_by_round(games: list[dict]) -> dict[int, set[frozenset[str]]]:
    tables: dict[int, set[frozenset[str]]] = {}
    for game in games:
        tables.setdefault(game["round"], set()).add(frozenset(s["entrant"] for s in game["seats"]))
    return tables


def enter(client: httpx.Client, tournament: dict, player: dict, entrant: str | None = None):
    return client.put(f"/v1/tournaments/{tournament['id']}/entrants/{entrant or player['id']}",
                      headers=auth(player["key"]))


def test_a_swiss_of_bots_and_ai_levels_is_played_through_the_entrants_streams(api):
    """Two example bots (playing through their streams) and three AI levels: 5 entrants,
    3 rounds, a bye each round to someone who had none, no rematch, every game over."""
    with httpx.Client(base_url=api.url, timeout=30) as client:
        owner = new_player(client, "Organiser", "bot")
        tournament = make(client, owner, format="swiss", rounds=3, turn_seconds=5,
                          entrants=["ai-1", "ai-2", "ai-3"])
        bots = [new_player(client, f"Bot {i}", "bot") for i in range(2)]
        for bot in bots:
            assert enter(client, tournament, bot).status_code == 200
        players = [Process(f"example bot {i}", [
            sys.executable, "examples/bot.py", "--url", api.url, "--key", bot["key"],
            "--policy", "random", "--seed", str(i)], cwd=ROOT) for i, bot in enumerate(bots)]
        try:
            start(client, owner, tournament)
            done = finished(client, tournament["id"])
        finally:
            for process in players:
                process.close()
        games = games_of(client, done)
    assert done["status"] == "finished" and done["round"] == 3
    entrants = {e["id"] for e in done["entrants"]}
    assert len(entrants) == 5
    byes = Counter(s["entrant"] for s in done["standings"] for _ in range(s["byes"]))
    assert sum(byes.values()) == 3 and max(byes.values()) == 1
    pairs = [pair for tables in tables_by_round(games).values() for pair in tables]
    assert len(pairs) == len(set(pairs)) == 6  # 2 tables a round, no pairing twice
    assert all(g["ended_at"] and all(s["rank"] for s in g["seats"]) for g in games)
    assert len(games) == 12  # a duplicate deal: each table plays it once per rotation
    standings = done["standings"]
    assert [s["rank"] for s in standings] == sorted(s["rank"] for s in standings)
    assert {s["entrant"] for s in standings} == entrants
    assert sum(s["points"] for s in standings) == 3 * 2 + 3  # a point a table, a bye 1
    for bot in bots:
        mine = [g for g in games if bot["id"] in {s["entrant"] for s in g["seats"]}]
        assert len(mine) >= 4


def test_a_round_robin_meets_every_pairing_exactly_once(client):
    owner = new_player(client, "Organiser", "bot")
    tournament = make(client, owner, format="round-robin", deals=1, duplicate=False,
                      entrants=["ai-1", "ai-2", "ai-3", "ai-4"], turn_seconds=5)
    assert tournament["rounds"] is None
    done = finished(client, start(client, owner, tournament)["id"])
    games = games_of(client, done)
    assert done["rounds"] == 3 and len(games) == 6
    pairs = sorted(sorted(s["entrant"] for s in g["seats"]) for g in games)
    assert pairs == sorted(sorted(pair) for pair in combinations(
        ["ai-1", "ai-2", "ai-3", "ai-4"], 2))
    assert done["tie_breaks"] == ["sonneborn_berger", "wins"]
    assert sum(s["points"] for s in done["standings"]) == 6


def test_entering_and_withdrawing_follow_who_the_key_is_and_the_entry_window(client):
    owner, other = new_player(client, "Owner", "bot"), new_player(client, "Other", "bot")
    tournament = make(client, owner, format="swiss", rounds=1)
    tid = tournament["id"]

    def refused(response: httpx.Response, status: int, kind: str) -> None:
        assert response.status_code == status, response.text
        assert response.json()["type"].endswith("/" + kind), response.json()
        # nothing changed: the same representation
        assert client.get(f"/v1/tournaments/{tid}", headers={"If-None-Match": tag}
                          ).status_code == 304

    tag = client.get(f"/v1/tournaments/{tid}").headers["ETag"]
    allowed = client.options(f"/v1/tournaments/{tid}/entrants/{other['id']}")
    assert allowed.headers["Allow"] == "DELETE, OPTIONS, PUT"
    refused(enter(client, tournament, other, owner["id"]), 403, "forbidden-entrant")
    refused(enter(client, tournament, other, "ai-2"), 403, "not-tournament-owner")
    refused(client.delete(f"/v1/tournaments/{tid}/entrants/{other['id']}",
                          headers=auth(other["key"])), 404, "entrant-not-found")
    refused(client.post(f"/v1/tournaments/{tid}/start", headers=auth(other["key"])), 403,
            "not-tournament-owner")
    refused(enter(client, tournament, other, "p_nobody_is_called_this"), 404,
            "player-not-found")
    assert client.put(f"/v1/tournaments/t_none/entrants/{other['id']}",
                      headers=auth(other["key"])).status_code == 404

    assert enter(client, tournament, other).status_code == 200
    again = enter(client, tournament, other)  # entering twice changes nothing
    assert again.status_code == 200 and [e["id"] for e in again.json()["entrants"]] == \
        [other["id"]]
    left = client.delete(f"/v1/tournaments/{tid}/entrants/{other['id']}",
                         headers=auth(other["key"]))
    assert left.status_code == 200 and left.json()["entrants"] == []
    for entrant in (other, owner):
        assert enter(client, tournament, entrant).status_code == 200
    assert enter(client, tournament, owner, "ai-1").status_code == 200
    running = start(client, owner, tournament)
    assert running["status"] == "running" and running["round"] == 1
    tag = client.get(f"/v1/tournaments/{tid}").headers["ETag"]
    late = new_player(client, "Late", "bot")
    response = enter(client, tournament, late)
    assert response.status_code == 409 and response.json()["type"].endswith("/entry-closed")
    response = client.delete(f"/v1/tournaments/{tid}/entrants/{other['id']}",
                             headers=auth(other["key"]))
    assert response.status_code == 409 and response.json()["type"].endswith("/entry-closed")
    cancelled = client.delete(f"/v1/tournaments/{tid}", headers=auth(owner["key"]))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    response = client.delete(f"/v1/tournaments/{tid}", headers=auth(owner["key"]))
    assert response.status_code == 409 and response.json()["type"].endswith("/tournament-closed")


def test_a_round_robin_takes_no_rounds_and_a_tournament_needs_a_players_key(client):
    owner = new_player(client, "Owner", "bot")
    response = client.post("/v1/tournaments", headers=auth(owner["key"]), json={
        **CUP, "format": "round-robin", "rounds": 3})
    assert response.status_code == 422
    assert response.json()["type"].endswith("/invalid-tournament")
    response = client.post("/v1/tournaments", json={**CUP, "format": "swiss"})
    assert response.status_code == 401
    response = client.post("/v1/tournaments", headers=auth(owner["key"]), json={
        **CUP, "format": "swiss", "entrants": [new_player(client, "Someone")["id"]]})
    assert response.status_code == 403 and response.json()["type"].endswith("/forbidden-entrant")


def test_a_tournament_without_enough_entrants_is_cancelled_when_its_entry_closes(client):
    owner = new_player(client, "Alone", "bot")
    tournament = make(client, owner, format="swiss", entry_seconds=1, entrants=[owner["id"]])
    done = finished(client, tournament["id"], seconds=40)
    assert done["status"] == "cancelled" and done["round"] == 0


def read_stream(client: httpx.Client, url: str, until: str,
                last_id: str | None = None) -> list[tuple[str, str, dict]]:
    """(id, event, data) of a tournament's stream up to the first `until` event."""
    found, event_id, kind = [], None, None
    headers = {} if last_id is None else {"Last-Event-ID": last_id}
    with client.stream("GET", url, headers=headers, timeout=60) as events:
        for line in events.iter_lines():
            if line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                found.append((event_id, kind, json.loads(line[6:])))
                if kind == until:
                    return found
    raise AssertionError(f"the stream ended before {until}")


def test_the_standings_live_on_a_stream_that_resumes_after_the_last_event_seen(client):
    owner = new_player(client, "Owner", "bot")
    tournament = make(client, owner, format="swiss", rounds=2, turn_seconds=5,
                      entrants=["ai-1", "ai-2", "ai-3", "ai-4"])
    start(client, owner, tournament)
    done = finished(client, tournament["id"])
    events = read_stream(client, done["events"], "tournament_finished")
    kinds = [kind for _, kind, _ in events]
    assert kinds[0] == "tournament_started"
    assert kinds.count("round_started") == 2 and kinds.count("round_finished") == 2
    assert kinds.count("table_finished") == 4
    last = events[-1][2]
    assert last["standings"] == done["standings"]
    # resumed after the first round's end: the rest, in order, nothing twice
    cut = kinds.index("round_finished")
    resumed = read_stream(client, done["events"], "tournament_finished", events[cut][0])
    assert [e[0] for e in resumed] == [e[0] for e in events[cut + 1:]]
    response = client.get(f"/v1/tournaments/{done['id']}")
    assert client.get(f"/v1/tournaments/{done['id']}", headers={
        "If-None-Match": response.headers["ETag"]}).status_code == 304


def test_a_tournament_goes_on_when_the_replica_running_it_dies():
    """Two replicas; the one that paired the first round is killed mid-tournament; the
    other plays it out from the database and the store: every round's games once, every
    game archived once."""
    env = {"REDIS_URL": SHARED_REDIS, "TURN_SECONDS_MIN": "1"}
    with server(env) as first, server(env) as second:
        with httpx.Client(base_url=first.url, timeout=30) as client:
            owner = new_player(client, "Owner", "bot")
            tournament = make(client, owner, format="swiss", rounds=4, deals=2,
                              turn_seconds=1, entrants=["ai-1", "ai-2", "ai-3", "ai-4", "ai-5"])
            start(client, owner, tournament)
            wait_until(lambda: any(t["over"] and not t["bye"] for t in client.get(
                f"/v1/tournaments/{tournament['id']}").json()["tables"]), seconds=60)
            assert client.get(f"/v1/tournaments/{tournament['id']}").json()["status"] == \
                "running"
        first.process.kill()
        first.process.wait()
        with httpx.Client(base_url=second.url, timeout=30) as client:
            done = finished(client, tournament["id"], seconds=240)
            games = games_of(client, done)
            database = second.database_url
            ids = {g["game_id"] for g in games}

            def archived() -> list[str]:
                return psql(database, "SELECT id FROM archived_games WHERE"
                            f" starts_with(id, '{tournament['id']}-')").split()
            try:  # the second replica archives what the first left in the outbox
                wait_until(lambda: set(archived()) >= ids, seconds=60)
            except TimeoutError:
                depth = client.get("/ready").json()["archive"]["outbox_depth"]
                raise AssertionError(f"never archived: {sorted(ids - set(archived()))}"
                                     f" (outbox depth {depth})") from None
    assert done["status"] == "finished" and done["round"] == 4
    assert len(games) == 4 * 2 * 4 and len(ids) == len(games)
    assert all(g["ended_at"] and all(s["rank"] for s in g["seats"]) for g in games)
    assert sorted(archived()) == sorted(ids)  # each once, and no other
    assert psql(database, "SELECT count(*) FROM tournament_games WHERE tournament_id ="
                f" '{tournament['id']}' AND ended_ms IS NOT NULL").strip() == str(len(games))
