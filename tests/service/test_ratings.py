"""The rating model: OpenSkill's Plackett-Luce as the library itself computes it, ties for
shared victories, the AI levels fixed, and the pools the calibration measured."""

import json

from openskill.models import PlackettLuce

import core
import core.ai
from service.players import ratings
from service.players.standings import Ledger, Outcome

MODEL = PlackettLuce()


def outcome(players: list[str], ranks: list[int], game: str = "cup-the-crab") -> Outcome:
    return Outcome("g1", game, len(players), 0, True, players, ranks)


def test_a_shared_victory_is_a_tie_for_first_rated_as_openskill_rates_it():
    ledger = Ledger({})
    ledger.rate(outcome(["p_a", "p_b", "p_c"], [1, 1, 3]), order=1)
    expected = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1, 1, 3])
    pool = ratings.pool("cup-the-crab", 3)
    for player, (after,) in zip(["p_a", "p_b", "p_c"], expected):
        got = ledger.get(player, pool)
        assert (got.mu, got.sigma, got.rated_games) == (after.mu, after.sigma, 1)
    tied = ledger.get("p_a", pool), ledger.get("p_b", pool)
    assert (tied[0].mu, tied[0].sigma) == (tied[1].mu, tied[1].sigma)  # a tie: one update


def test_a_four_player_ranking_with_a_tie_in_the_middle_matches_the_library():
    ledger = Ledger({})
    ranks = [2, 1, 2, 4]
    ledger.rate(outcome(["p_a", "p_b", "p_c", "p_d"], ranks), order=1)
    expected = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=ranks)
    pool = ratings.pool("cup-the-crab", 4)
    assert [(ledger.get(p, pool).mu, ledger.get(p, pool).sigma)
            for p in ["p_a", "p_b", "p_c", "p_d"]] == [(a.mu, a.sigma) for (a,) in expected]


def test_an_ai_level_keeps_its_calibrated_skill_and_only_the_player_moves():
    pool = ratings.pool("crabe-vs-poulpe", 2)
    level = ratings.anchor(pool, 3)
    ledger = Ledger({})
    ledger.rate(outcome(["p_a", "ai-3"], [1, 2], "crabe-vs-poulpe"), order=1)
    ai = ledger.get("ai-3", pool)
    assert (ai.mu, ai.sigma) == (level.mu, level.sigma)
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating(mu=level.mu, sigma=level.sigma)]],
                          ranks=[1, 2])
    player = ledger.get("p_a", pool)
    assert (player.mu, player.sigma) == (expected[0][0].mu, expected[0][0].sigma)
    assert [change["player_id"] for change in ledger.changes] == ["p_a"]


def test_cup_the_crab_has_a_rating_for_2_players_and_one_for_3_to_5_as_measured():
    assert ratings.pool("cup-the-crab", 2) == "cup-the-crab-2p"
    assert {ratings.pool("cup-the-crab", n) for n in (3, 4, 5)} == {"cup-the-crab-3-5p"}
    assert ratings.pool("crabe-vs-poulpe", 2) == "crabe-vs-poulpe"


def test_every_pool_of_every_game_has_all_five_levels_calibrated():
    names = ratings.pool_names(list(core.GAMES))
    assert names == ["cup-the-crab-2p", "cup-the-crab-3-5p", "crabe-vs-poulpe"]
    for name in names:
        assert all(ratings.anchor(name, level) is not None for level in range(1, 6)), name
    stored = json.loads(ratings.model.ANCHORS.read_text())["pools"]
    covered = {(found["game"], count) for found in stored.values() for count in found["players"]}
    assert covered == {(game, count) for game in core.GAMES for count in core.PLAYERS[game]}


def test_every_pool_s_levels_climb_by_at_least_two_mu_a_level():
    # Issue 31: each level stronger than the one below in every pool, on the shared scale.
    for name in ratings.pool_names(list(core.GAMES)):
        mus = [ratings.anchor(name, level).mu for level in range(1, 6)]
        assert all(high - low >= 2 for low, high in zip(mus, mus[1:])), (name, mus)


def test_a_record_is_rated_only_when_asked_and_every_seat_is_a_player():
    document = {"game": "cup-the-crab", "players": 2, "rated": True,
                "seats": [{"player": "p_a"}, {"player": None}],
                "result": {"ranking": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}]}}
    assert Outcome.of("g", 0, json.dumps(document)).rated is False
    document["seats"][1]["player"] = "ai-2"
    found = Outcome.of("g", 0, json.dumps(document))
    assert found.rated is True and found.ranks == [1, 2] and found.seats == ["p_a", "ai-2"]


def test_the_levels_of_before_issue_31_stay_in_the_anchors_as_the_fixed_references():
    """anchors.json keeps the references the levels were rated against (docs/players.md):
    the levels that play as before take their reference's skill, the others their own."""
    found = json.loads(ratings.model.ANCHORS.read_text())["pools"]
    for pool in found.values():
        for level in range(1, 6):
            same = core.ai.LEVELS[level] == core.ai.REFERENCE_LEVELS[level]
            assert (pool["levels"][str(level)] == pool["references"][str(level)]) == same


def test_the_calibration_against_the_references_plays_each_changed_level_and_only_those():
    from service.players.ratings import calibrate
    assert calibrate.CHANGED == (3, 4, 5)
    for game in calibrate.TABLES:
        work = calibrate.reference_schedule(game)
        assert len({seed for _, _, seed in work}) == len(work)  # every game its own deal
        for _, seating, _ in work:
            assert any(who.startswith("level-") for who in seating)
            assert all(who.startswith("ref-") or int(who[6:]) in calibrate.CHANGED
                       for who in seating)
