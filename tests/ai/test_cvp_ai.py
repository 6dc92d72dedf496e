"""The Crabe vs Poulpe AI: its determinizer keeps to what a seat knows, its search is honest."""

import random
from collections import Counter

import pytest

import core
import core.ai
from core.games.cvp import search as cvp_search
from core.games.cvp.rules import CARD_NAMES
from tests.ai.cvp_twins import view_twin

GAME = "crabe-vs-poulpe"
MODES = ("symmetrical", "asymmetrical")
DECISIONS = ("turn", "response", "pincer", "heal", "search", "capture", "mimic", "discard",
             "offer")


def play(seed, mode, stop=None, moves=None):
    """A seeded random game with its log; stops before a move of phase `stop` (or after
    `moves` moves, or at a random point).  Returns (state, log); log entries are
    (seat, move, revealed), revealed the hand shown to the mover then (or None)."""
    rng = random.Random(seed)
    state = core.new_game(GAME, 2, seed=seed, options={"mode": mode})
    log = []
    limit = rng.randrange(0, 120) if moves is None and stop is None else moves
    while not state.is_over:
        view = state.view()
        if stop is not None and view["phase"] == stop and rng.random() < 0.5:
            return state, log
        if limit is not None and len(log) >= limit:
            return state, log
        seat = state.to_move[0]
        move = rng.choice(state.legal_moves(seat))
        log.append((seat, move, state.view(seat)["revealed"]))
        state.apply(seat, move)
    return None, log


def history(state, log, seat, reveals=True):
    """The log as `seat` sees it (visible_move), with the hands it was shown."""
    out = []
    for actor, move, revealed in log:
        entry = {"seat": actor, "move": state.visible_move(actor, move, seat)}
        if reveals and actor == seat and revealed is not None:
            entry["revealed"] = revealed
        out.append(entry)
    return out


def positions(n, stop=None, seed0=0):
    """n (state, log) pairs of unfinished games, both modes."""
    found, seed = [], seed0
    while len(found) < n:
        state, log = play(seed, MODES[seed % 2], stop=stop)
        seed += 1
        if state is not None and (stop is None or state.view()["phase"] == stop):
            found.append((state, log))
    return found


def kinds(cards):
    return Counter(CARD_NAMES.index(c) for c in cards)


# -- the determinizer -------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_a_determinization_shows_the_seat_its_view_and_keeps_every_card(seed):
    state, log = positions(1, seed0=1000 * seed)[0]
    for seat in (0, 1):
        for info in (None, cvp_search.info(state, seat, history(state, log, seat))):
            det = cvp_search.determinize(state, seat, info, seed=seed, strict=True)
            assert det.view(seat) == state.view(seat)
            rebuilt = core.from_snapshot(det.snapshot())   # checks every card's place
            assert rebuilt.snapshot() == det.snapshot()
            assert det.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("stop", DECISIONS)
def test_decision_points_are_determinized_consistently(stop):
    for state, log in positions(3, stop=stop, seed0=7):
        seat = state.to_move[0]
        info = cvp_search.info(state, seat, history(state, log, seat))
        for s in range(5):
            det = cvp_search.determinize(state, seat, info, seed=s, strict=True)
            assert det.view(seat) == state.view(seat)
            assert det.legal_actions(seat) == state.legal_actions(seat)
            core.from_snapshot(det.snapshot())


def _check_knowledge_against(snap, seat, know):
    """The real position (or a determinization) agrees with what the seat knows."""
    other = seat ^ 1
    hand = kinds(snap["seats"][other]["hand"])
    discard = kinds(snap["discard"])
    maybe = Counter(k for k, _ in know["maybe"])
    assert not know["pinned"] - hand, "a card known in the opponent's hand is elsewhere"
    assert not know["known_x"] - discard, "a card known discarded is elsewhere"
    assert not (know["pinned"] + maybe) - hand - (discard - know["known_x"])
    unknown_discards = sum(discard.values()) - sum(know["known_x"].values())
    assert unknown_discards == know["hidden"]


@pytest.mark.parametrize("seed", range(30))
def test_what_the_history_teaches_is_true_of_the_real_game_and_of_every_sample(seed):
    state, log = positions(1, seed0=50_000 + 977 * seed)[0]
    for seat in (0, 1):
        know = cvp_search.knowledge(state, seat, history(state, log, seat))
        real = state.snapshot()
        _check_knowledge_against(real, seat, know)
        info = cvp_search.pack(know)
        for s in range(4):
            det = cvp_search.determinize(state, seat, info, seed=s, strict=True).snapshot()
            _check_knowledge_against(det, seat, know)
            # The seat's own draw pile holds what the history says: only its order changes.
            assert Counter(det["seats"][seat]["draw_pile"]) == Counter(
                real["seats"][seat]["draw_pile"])


def _game_with(seed, wanted, mode="symmetrical"):
    """A game that just had a move of type `wanted` by some seat, with its log."""
    for s in range(seed, seed + 3000):
        rng = random.Random(s)
        state = core.new_game(GAME, 2, seed=s, options={"mode": mode})
        log = []
        while not state.is_over and len(log) < 150:
            seat = state.to_move[0]
            moves = state.legal_moves(seat)
            chosen = [m for m in moves if m["type"] == wanted] or moves
            move = rng.choice(chosen)
            log.append((seat, move, state.view(seat)["revealed"]))
            state.apply(seat, move)
            if move["type"] == wanted and not state.is_over:
                return state, log, seat, move
    raise AssertionError(f"no game with a {wanted} move")


def test_a_card_given_by_offer_stays_in_the_opponent_s_hand_in_every_sample():
    state, log, giver, move = _game_with(1, "give")
    know = cvp_search.knowledge(state, giver, history(state, log, giver))
    assert know["pinned"][CARD_NAMES.index(move["card"])] >= 1
    info = cvp_search.pack(know)
    for s in range(50):
        hand = cvp_search.determinize(state, giver, info, seed=s, strict=True).view(giver ^ 1)["hand"]
        assert move["card"] in hand


def test_a_hand_seen_by_pincer_stays_known_afterwards():
    state, log, seat, move = _game_with(3, "pincer", mode="asymmetrical")
    shown = Counter(log[-1][2])
    shown[move["card"]] -= 1
    know = cvp_search.knowledge(state, seat, history(state, log, seat))
    assert Counter(CARD_NAMES[k] for k in know["pinned"].elements()) == +shown
    info = cvp_search.pack(know)
    for s in range(30):
        det = cvp_search.determinize(state, seat, info, seed=s, strict=True)
        assert Counter(det.view(seat ^ 1)["hand"]) == Counter(state.view(seat ^ 1)["hand"])
    # Without the hands it was shown, the history alone cannot pin them.
    blind = cvp_search.knowledge(state, seat, history(state, log, seat, reveals=False))
    assert sum(blind["pinned"].values()) < sum(shown.values()) or not +shown


def test_a_hand_being_looked_at_is_exactly_the_real_one():
    for state, log in positions(4, stop="pincer", seed0=3) + positions(4, stop="mimic", seed0=3):
        seat = state.to_move[0]
        for info in (None, cvp_search.info(state, seat, history(state, log, seat))):
            for s in range(5):
                det = cvp_search.determinize(state, seat, info, seed=s, strict=True)
                assert det.view(seat ^ 1)["hand"] == state.view(seat ^ 1)["hand"]


def test_an_opponent_s_discard_releases_what_it_was_known_to_hold():
    for seed in range(11, 40):
        state, log, giver, move = _game_with(seed, "give")
        other = giver ^ 1
        rng = random.Random(5)
        while not state.is_over:        # on until the receiver discards face down
            seat = state.to_move[0]
            m = rng.choice(state.legal_moves(seat))
            log.append((seat, m, state.view(seat)["revealed"]))
            state.apply(seat, m)
            if seat == other and m["type"] == "discard":
                break
        if not state.is_over:
            break
    know = cvp_search.knowledge(state, giver, history(state, log, giver))
    assert know["hidden"] >= 1 and not know["pinned"]   # nothing is certain any more
    _check_knowledge_against(state.snapshot(), giver, know)


def test_the_unseen_cards_are_spread_over_every_place_they_could_be():
    state = core.new_game(GAME, 2, seed=4, options={"first_player": 0})
    # Seat 0 cannot tell seat 1's 5 cards from its 19 others: each of seat 1's cards is
    # in its hand in about 5/24 of the samples.
    counts = Counter()
    n = 2000
    for s in range(n):
        counts.update(cvp_search.determinize(state, 0, cvp_search.info(state, 0, []), seed=s)
                      .view(1)["hand"])
    for card in ("octopus-alpha", "octopus-7", "octopus-omega"):
        assert abs(counts[card] / n - 2 * 5 / 24) < 0.05, (card, counts[card])


def test_the_same_seed_gives_the_same_determinization_and_seeds_differ():
    state, log = positions(1, seed0=99)[0]
    seat = state.to_move[0]
    info = cvp_search.info(state, seat, history(state, log, seat))
    a = cvp_search.determinize(state, seat, info, seed=3, strict=True).snapshot()
    assert a == cvp_search.determinize(state, seat, info, seed=3, strict=True).snapshot()
    assert len({str(cvp_search.determinize(state, seat, info, seed=s, strict=True).snapshot())
                for s in range(20)}) > 1


def test_a_history_that_does_not_lead_here_is_refused():
    state, log = positions(1, seed0=5)[0]
    seat = state.to_move[0]
    with pytest.raises(ValueError, match="history"):
        cvp_search.info(state, seat, history(state, log, seat)[:-3] if len(log) > 3 else
                    [{"seat": 0, "move": {"type": "pass"}}] * 3 + [{"seat": 0, "move": 1}])
    with pytest.raises(ValueError):
        cvp_search.info(state, seat, [{"seat": 0, "move": {"type": "play", "card": "x"}}])


# -- the search ---------------------------------------------------------------------------

def _strip(out):
    for key in ("simulations_per_second", "seconds", "cpu_seconds"):
        out.pop(key)
    return out


@pytest.mark.parametrize("algorithm", ["ismcts", "flat"])
@pytest.mark.parametrize("seed", range(6))
def test_positions_the_seat_cannot_tell_apart_get_the_same_suggestion(seed, algorithm):
    # Without a history the seat knows its view: an independently built twin.
    for state, log in positions(2, stop="turn", seed0=300 + 10 * seed):
        seat = state.to_move[0]
        if len(state.legal_actions(seat)) < 2:
            continue
        twins = [view_twin(state, seat, seed + k) for k in range(20)]
        twin = next(t for t in twins if t.snapshot() != state.snapshot())
        a = core.ai.suggest(state, seat, iterations=300, seed=seed, algorithm=algorithm)
        b = core.ai.suggest(twin, seat, iterations=300, seed=seed, algorithm=algorithm)
        assert _strip(a) == _strip(b)


@pytest.mark.parametrize("seed", range(6))
def test_with_a_history_twins_the_history_allows_get_the_same_suggestion(seed):
    # With the history, a twin is any position the seat's knowledge allows: a sample.
    state, log = positions(1, seed0=700 + 13 * seed)[0]
    seat = state.to_move[0]
    seen = history(state, log, seat)
    info = cvp_search.info(state, seat, seen)
    twin = next(t for t in (cvp_search.determinize(state, seat, info, seed=100 + k, strict=True)
                            for k in range(30)) if t.snapshot() != state.snapshot())
    assert cvp_search.info(twin, seat, seen) == info
    a = core.ai.suggest(state, seat, iterations=300, seed=seed, history=seen)
    b = core.ai.suggest(twin, seat, iterations=300, seed=seed, history=seen)
    assert _strip(a) == _strip(b)


@pytest.mark.parametrize("seed", range(30))
def test_the_suggestion_is_always_legal(seed):
    stop = DECISIONS[seed % len(DECISIONS)] if seed % 3 else None
    state, log = positions(1, stop=stop, seed0=2000 + 31 * seed)[0]
    seat = state.to_move[0]
    algorithm = "flat" if seed % 4 == 0 else "ismcts"
    seen = history(state, log, seat) if seed % 2 else None
    out = core.ai.suggest(state, seat, iterations=200, seed=seed, algorithm=algorithm,
                          history=seen)
    assert out["move"] in state.legal_moves(seat)
    assert state.action_of(out["move"]) == out["action"]
    if out["iterations"]:
        assert sum(row["visits"] for row in out["stats"]) == 200
        assert all(row["move"] in state.legal_moves(seat) for row in out["stats"])


@pytest.mark.parametrize("mode", MODES)
def test_an_ai_plays_whole_games_with_legal_moves_and_its_history(mode):
    state = core.new_game(GAME, 2, seed=3, options={"mode": mode})
    log = []
    while not state.is_over:
        seat = state.to_move[0]
        out = core.ai.suggest(state, seat, iterations=60, seed=len(log),
                              history=history(state, log, seat))
        log.append((seat, out["move"], state.view(seat)["revealed"]))
        state.apply(seat, out["move"])
    assert state.result()["winner"] in (0, 1)


def test_two_threads_search_and_suggest_a_legal_move():
    state, log = positions(1, seed0=42)[0]
    seat = state.to_move[0]
    out = core.ai.suggest(state, seat, iterations=2001, seed=2, threads=2,
                          history=history(state, log, seat))
    assert out["move"] in state.legal_moves(seat)
    assert out["iterations"] == 2001 and out["threads"] == 2
    out = core.ai.suggest(state, seat, time_ms=30, threads=2)
    assert out["move"] in state.legal_moves(seat)


def test_the_ai_beats_a_random_player_more_often_than_not():
    wins = 0
    for g in range(6):
        state = core.new_game(GAME, 2, seed=g, options={"mode": MODES[g % 2]})
        rng = random.Random(g)
        hero = g % 2
        while not state.is_over:
            seat = state.to_move[0]
            if seat == hero:
                action = core.ai.suggest(state, seat, iterations=300, seed=g)["action"]
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply_action(seat, action)
        wins += state.result()["winner"] == hero
    assert wins >= 4
