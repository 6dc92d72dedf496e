"""A tournament's pairings as series: each pair of table-mates gets the crosstable cell
the series code (service/arena/crosstable.py) makes of the same games, recomputed here
from the archived games alone; with `estimates: judged`, the judge's corrected and fitted
estimates too, their luck recomputed from the replays; the standings stay the points'."""

from collections import defaultdict

import httpx

import core
from service.arena.crosstable import Played, crosstable, estimate
from service.arena.estimates import Judge, Seat, luck
from tests.service.play import auth
from tests.service.test_api_players import new_player
from tests.service.test_api_tournaments import finished, games_of, make, read_stream, start

LEVELS = ["ai-1", "ai-2", "ai-3", "ai-4"]


def played(client: httpx.Client, tournament: dict) -> dict[tuple[int, int], list[dict]]:
    """The archive's games by (round, table), in their order at the table."""
    tables: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for game in games_of(client, tournament):
        tables[(game["round"], game["table"])].append(game)
    return tables


def series_cells(games: list[dict], rotations: int,
                 judge: Judge | None, client: httpx.Client) -> tuple[list[str], list[dict]]:
    """The table's entrants (as its first game seats them) and the series code's crosstable
    of its games: ranks and points from the games' listing, luck from their replays."""
    entrants = [seat["entrant"] for seat in games[0]["seats"]]   # rotation 0: table order
    index = {entrant: i for i, entrant in enumerate(entrants)}
    found = []
    for game in games:
        by_seat = [index[seat["entrant"]] for seat in game["seats"]]
        ranks = {index[seat["entrant"]]: seat["rank"] for seat in game["seats"]}
        points = {index[seat["entrant"]]: seat["points"] for seat in game["seats"]}
        found.append(Played.of(game["deal"], ranks, game["game_id"], points,
                               None if judge is None else replayed_luck(client, judge, game,
                                                                        by_seat, entrants)))
    return entrants, crosstable(found, len(entrants), rotations)


def replayed_luck(client: httpx.Client, judge: Judge, game: dict, by_seat: list[int],
                  entrants: list[str]) -> list[list[float]]:
    """The judge's luck in the game, from its replay alone, by the table's entrants."""
    versions = client.get(game["replay"]).json()["versions"]
    initial = core.from_snapshot(versions[0]["position"])
    entries = [version["entry"] for version in versions[1:]]
    seats = [Seat({"level": int(entrants[c].removeprefix("ai-"))}) for c in by_seat]
    by_seat_luck = luck(judge, initial, entries, seats, game["game_id"])
    out = [[0.0] * len(by_seat) for _ in by_seat]
    for s, a in enumerate(by_seat):
        for t, b in enumerate(by_seat):
            out[a][b] = round(by_seat_luck[s][t], 6)
    return out


def margins(games: list[dict], a: str, b: str) -> dict[int, list[int]]:
    """a's margin over b (+1, 0, -1) in each game, by deal: the paired difference's input."""
    by_deal: dict[int, list[int]] = defaultdict(list)
    for game in games:
        rank = {seat["entrant"]: seat["rank"] for seat in game["seats"]}
        by_deal[game["deal"]].append((rank[a] < rank[b]) - (rank[a] > rank[b]))
    return by_deal


def round_robin(client: httpx.Client, **spec) -> tuple[dict, dict]:
    owner = new_player(client, "Organiser", "bot")
    tournament = make(client, owner, format="round-robin", deals=3, duplicate=True,
                      turn_seconds=5, entrants=LEVELS, **spec)
    return tournament, finished(client, start(client, owner, tournament)["id"], seconds=900)


def test_each_pairing_of_a_duplicate_round_robin_is_the_series_of_its_games(client):
    tournament, done = round_robin(client)
    assert tournament["estimates"] == "paired" and tournament["judge"] is None
    tables = played(client, done)
    assert len(tables) == 6 and all(len(games) == 6 for games in tables.values())
    shown = {(p["round"], p["table"]): p for p in done["pairings"]}
    assert sorted(shown) == sorted(tables)  # one pairing per table of two
    for key, games in tables.items():
        entrants, [cell] = series_cells(games, 2, None, client)
        pairing = shown[key]
        assert [pairing["a"], pairing["b"]] == entrants
        assert pairing["verdict"] == cell
        # and by hand: the mean over the 3 deals of each deal's mean margin, Student's t
        deals = margins(games, *entrants)
        assert cell["paired_difference"] == estimate(
            [sum(m) / len(m) for m in deals.values()]).body()
        assert cell["deals"] == 3 and cell["games"] == 6
        assert cell["points_difference"] is not None   # Cup the Crab scores points
        assert cell["corrected_difference"] is None and cell["fitted_difference"] is None
    # the standings are the points' and tie-breaks' still, the verdicts beside them
    points = [s["points"] for s in done["standings"]]
    assert points == sorted(points, reverse=True) and abs(sum(points) - 6) < 1e-3  # rounded
    events = read_stream(client, done["events"], "tournament_finished")
    ended = {(e["round"], e["table"]): e["pairings"] for _, kind, e in events
             if kind == "table_finished"}
    assert {key: found for key, [found] in ended.items()} == shown


def test_a_judged_round_robin_gives_each_pairing_the_series_corrected_estimates(client):
    tournament, done = round_robin(client, estimates="judged")
    judge = Judge(**done["judge"])
    assert tournament["estimates"] == "judged" and done["judge"] == tournament["judge"]
    tables = played(client, done)
    shown = {(p["round"], p["table"]): p for p in done["pairings"]}
    for key, games in tables.items():
        entrants, [cell] = series_cells(games, 2, judge, client)
        assert shown[key]["verdict"] == cell
        corrected = cell["corrected_difference"]
        assert corrected is not None and corrected["samples"] == 6
        # 3 deals: too few to fit a weight, so the fitted estimate is the paired one
        assert cell["fitted_difference"] == cell["paired_difference"]


def test_an_unknown_estimates_value_is_refused_with_a_problem_naming_it(client):
    owner = new_player(client, "Owner", "bot")
    response = client.post("/v1/tournaments", headers=auth(owner["key"]), json={
        "game": "cup-the-crab", "format": "swiss", "estimates": "aivat"})
    assert response.status_code == 400, response.text
    problem = response.json()
    assert problem["type"].endswith("/invalid-request") and "estimates" in problem["detail"]
    document = client.get("/schema/openapi.json").json()["components"]["schemas"]
    assert sorted(document["TournamentCupCrab2Swiss"]["properties"]["estimates"]["enum"]) == [
        "judged", "paired"]
