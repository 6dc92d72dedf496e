"""A series' variance-reduced estimate over the real API: its judge fixed and shown from
the start, each game's luck found on its replay, the corrected difference and the deals
it needs beside the plain ones, the fitted estimate beside it, and every figure recomputed
from the replays alone."""

import httpx

import core
from service.arena.crosstable import estimate
from service.arena.estimates import Judge, Seat, luck
from service.arena.regression import cross_fitted
from tests.service.test_api_players import new_player
from tests.service.test_api_series import finished, games_of, start


def test_a_series_reports_the_corrected_difference_that_its_replays_recompute(client):
    owner = new_player(client, "Owner", "bot")
    series = start(client, owner, contestants=["ai-1", "ai-3"], deals=2, at_once=4)
    assert series["judge"] == {"name": "aivat", "version": 1, "value": "core.ai.margins",
                               "iterations": 256, "playout": "random", "searches": 8,
                               "deals": 16, "chance": 8}
    done = finished(client, series["id"])
    [cell] = done["crosstable"]
    corrected = cell["corrected_difference"]
    assert corrected["samples"] == 4 and corrected["low"] <= corrected["mean"] <= corrected["high"]
    assert cell["deals_for_5_percent"]["corrected"] >= 1
    assert cell["corrected_variance_ratio"] is None or cell["corrected_variance_ratio"] > 0
    games = recomputed(client, done)
    assert corrected == estimate([margin - luck for _, margin, luck in games]).body()
    # the fitted estimate: each deal's mean margin less its mean luck times a coefficient
    # fitted on the other deals (with two deals, too few to fit one: zero, and the
    # interval the paired one's)
    deals = [[(m, x) for d, m, x in games if d == deal] for deal in (0, 1)]
    margins = [sum(m for m, _ in rows) / 2 for rows in deals]
    lucks = [[sum(x for _, x in rows) / 2] for rows in deals]
    assert cell["fitted_difference"] == estimate(cross_fitted(margins, lucks)).body()
    assert cell["fitted_difference"] == cell["paired_difference"]
    assert cell["fitted_difference"]["samples"] == 2


def recomputed(client: httpx.Client, series: dict) -> list[tuple[int, int, float]]:
    """Each game's deal, contestant 0's margin over contestant 1 and the luck in it, from
    the replays and the series' judge: what anyone can check."""
    judge = Judge(**series["judge"])
    levels = [int(c["id"].removeprefix("ai-")) for c in series["contestants"]]
    margins = []
    for game in games_of(client, series):
        versions = client.get(game["replay"]).json()["versions"]
        initial = core.from_snapshot(versions[0]["position"])
        entries = [version["entry"] for version in versions[1:]]
        who = [seat["contestant"] for seat in game["seats"]]
        found = luck(judge, initial, entries, [Seat({"level": levels[c]}) for c in who],
                     game["game_id"])
        a, b = who.index(0), who.index(1)
        rank = {seat["contestant"]: seat["rank"] for seat in game["seats"]}
        margin = (rank[0] < rank[1]) - (rank[0] > rank[1])
        margins.append((game["deal"], margin, round(found[a][b], 6)))
    return margins
