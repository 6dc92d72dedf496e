"""The AI levels' calibration (service/players/ratings/calibrate.py): every table size the
registry gives is played, and pools are kept apart only where the tables' fits disagree."""

import itertools
from collections import Counter

import pytest

import core
from service.players.ratings import calibrate


def results(players: int, winner: int) -> list[tuple[tuple[int, ...], list[int]]]:
    """Every group of `players` levels, 20 times, `winner` first when seated, else level order."""
    games = []
    for group in itertools.combinations(calibrate.LEVELS, players):
        order = sorted(group, key=lambda level: (level != winner, level))
        games += [(group, [order.index(level) + 1 for level in group])] * 20
    return games


def even(players: int) -> list[tuple[tuple[int, ...], list[int]]]:
    """Every group of `players` levels, each level of it first in turn: no level stronger."""
    games = []
    for group in itertools.combinations(calibrate.LEVELS, players):
        for shift in range(players):
            games += [(group, [(seat - shift) % players + 1 for seat in range(players)])] * 4
    return games


def test_the_calibration_plays_every_table_size_the_registry_gives_each_game():
    for game in core.GAMES:
        sizes = {len(seating) for _, seating, _ in calibrate.schedule(game, 1)}
        assert sizes == set(core.PLAYERS[game])


def test_tables_whose_fits_disagree_get_a_pool_each_named_by_their_players():
    # Level 1 beats everyone at two; level 5 at three to five: the fits disagree.
    fits = calibrate.fits_of("cup-the-crab", results(2, 1) + results(3, 5) + results(4, 5))
    pools = calibrate.pools_of("cup-the-crab", fits)
    assert {name: pool["players"] for name, pool in pools.items()} == {
        "cup-the-crab-2p": [2], "cup-the-crab-3-5p": [3, 4, 5]}


def test_tables_whose_fits_agree_share_one_pool_of_every_table_size():
    fits = calibrate.fits_of("cup-the-crab", even(2) + even(3) + even(4))
    assert {name: pool["players"] for name, pool in
            calibrate.pools_of("cup-the-crab", fits).items()} == {"cup-the-crab": [2, 3, 4, 5]}


def test_a_game_of_one_table_size_has_one_pool_and_one_fit():
    fits = calibrate.fits_of("crabe-vs-poulpe", results(2, 1))
    assert list(fits) == ["all"]
    assert list(calibrate.pools_of("crabe-vs-poulpe", fits)) == ["crabe-vs-poulpe"]


def test_playing_again_one_level_replays_every_game_without_it_from_the_saved_results():
    work = calibrate.reference_schedule("cup-the-crab")
    saved = {key: [1] * len(key[1]) for key in work[:-1]}   # the last game never saved
    play = calibrate.to_play(work, saved, (5,))
    assert play == [i for i, (_, seating, _) in enumerate(work)
                    if "level-5" in seating or i == len(work) - 1]
    assert 0 < len(play) < len(work)
    assert calibrate.to_play(work, None, (5,)) == list(range(len(work)))
    assert calibrate.to_play(work, saved, ()) == [len(work) - 1]


def test_play_again_without_a_file_to_replay_the_others_from_is_refused(capsys):
    with pytest.raises(SystemExit):
        calibrate.main(["--against-references", "--play-again", "5"])
    assert "--play-again needs --replay" in capsys.readouterr().err


def test_the_changed_levels_sit_round_mixed_tables_in_both_directions():
    """Turning the seats keeps who sits right after whom, which decides much at these
    tables: every pair of changed levels is as often k seats after the other as before it."""
    for game in ("cup-the-crab", "crabe-vs-poulpe"):
        gaps: Counter = Counter()
        for _, seating, _ in calibrate.reference_schedule(game):
            seats = {who: i for i, who in enumerate(seating) if who.startswith("level-")}
            for a, i in seats.items():
                for b, j in seats.items():
                    if a != b:
                        gaps[a, b, len(seating), (j - i) % len(seating)] += 1
        assert gaps and all(gaps[a, b, n, gap] == gaps[b, a, n, gap]
                            for a, b, n, gap in gaps), game
