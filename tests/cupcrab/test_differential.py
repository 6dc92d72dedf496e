"""Differential test: the compiled engine (``core``) against the pure-Python reference model.

For random player counts, engine seeds and move sequences, every observable output of the
engine (to_move, legal_moves of every seat, view of every seat and of a spectator, snapshot,
is_over, result) must equal the reference model's, at every step.  Moves the model rejects
must raise ``core.IllegalMove`` in the engine and leave its state unchanged.
"""

import copy
import itertools
import json
import os
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if _ROOT not in sys.path:
    sys.path.append(_ROOT)

core = pytest.importorskip("core")
if not hasattr(core, "new_game"):  # the compiled engine is not built (yet)
    pytest.skip("core engine not built", allow_module_level=True)

from tests.reference.cupcrab import CARD_NAMES, KIND, CupCrabModel, new_deal  # noqa: E402

GAME = "cup-the-crab"


def J(x):
    """JSON-ready normal form (tuples -> lists); fails if the value is not JSON-ready."""
    return json.loads(json.dumps(x))


def first_diff(a, b, path="$"):
    """A short description of the first place where a and b differ (None if equal)."""
    if type(a) is not type(b):
        return f"{path}: engine {a!r} != model {b!r}"
    if isinstance(a, dict):
        if list(a) != list(b):
            if set(a) != set(b):
                return f"{path}: keys engine {sorted(a)} != model {sorted(b)}"
        for k in a:
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: length engine {len(a)} != model {len(b)}: engine {a!r} model {b!r}"
        return None
    if a != b:
        return f"{path}: engine {a!r} != model {b!r}"
    return None


def same(what, engine_value, model_value, ctx):
    e = J(engine_value)
    m = J(model_value)
    if e != m:
        raise AssertionError(f"[{ctx}] {what} differs: {first_diff(e, m)}")


TRIPLES = list(itertools.combinations_with_replacement(range(len(CARD_NAMES)), 3))  # 286, sorted


def action_id(move):
    """The fixed integer id of a legal move (docs/rules.md)."""
    if move["type"] == "select":
        return 66 + TRIPLES.index(tuple(sorted(KIND[c] for c in move["cards"])))
    kind = KIND[move["card"]]
    if move["type"] == "play":
        return kind * 5 + move["stack"]
    if move["type"] == "new-stack":
        return kind * 5 + 4
    return 55 + kind


def compare(state, model, ctx):
    players = model.players
    assert list(state.to_move) == model.to_move, (
        f"[{ctx}] to_move engine {list(state.to_move)} != model {model.to_move}")
    assert bool(state.is_over) == model.is_over, f"[{ctx}] is_over differs"
    for seat in range(players):
        same(f"legal_moves({seat})", state.legal_moves(seat), model.legal_moves(seat), ctx)
        if hasattr(state, "legal_actions"):
            same(f"legal_actions({seat})", state.legal_actions(seat),
                 [action_id(mv) for mv in model.legal_moves(seat)], ctx)
    for seat in list(range(players)) + [None]:
        same(f"view({seat})", state.view(seat), model.view(seat), ctx)
    snap = state.snapshot()
    same("snapshot()", snap, model.snapshot(), ctx)
    same("result()", state.result(), model.result(), ctx)


def all_wellformed_moves(max_stacks):
    moves = []
    for triple in itertools.combinations_with_replacement(CARD_NAMES, 3):
        moves.append({"type": "select", "cards": list(triple)})
    for c in CARD_NAMES:
        for i in range(max_stacks + 1):  # one slot past the end, too
            moves.append({"type": "play", "card": c, "stack": i})
        moves.append({"type": "new-stack", "card": c})
        moves.append({"type": "discard", "card": c})
    return moves


MALFORMED = [
    {"type": "play", "card": "crab", "stack": -1},
    {"type": "play", "card": "crab", "stack": "0"},
    {"type": "play", "card": "crab"},
    {"type": "new-stack", "card": "cup-7"},
    {"type": "new-stack", "card": "cup-1", "stack": 0},
    {"type": "discard"},
    {"type": "select", "cards": ["cup-1", "cup-1"]},
    {"type": "select", "cards": ["cup-1", "cup-1", "cup-1", "cup-1"]},
    {"type": "select", "cards": ["cup-1", "cup-1", "joker"]},
    {"type": "pass"},
    {"card": "cup-1"},
    {},
    {"type": "play", "card": "crab", "stack": True},
    {"type": "play", "card": "crab", "stack": 0.0},
    {"type": "play", "card": 8, "stack": 0},
    {"type": "new-stack", "card": "CUP-1"},
    None,
    "discard",
    ["discard", "crab"],
]


def model_accepts(model, seat, move):
    trial = copy.deepcopy(model)
    try:
        trial.apply(seat, copy.deepcopy(move))
    except ValueError:
        return False
    return True


def probe_illegal(state, model, rng, ctx, n=4):
    """A few random moves the model rejects must raise core.IllegalMove, state unchanged."""
    universe = all_wellformed_moves(model.max_stacks)
    before = J(state.snapshot())
    tried = 0
    attempts = 0
    while tried < n and attempts < 50:
        attempts += 1
        seat = rng.randrange(model.players)
        if rng.random() < 0.2:
            move = rng.choice(MALFORMED)
        else:
            move = rng.choice(universe)
        if model_accepts(model, seat, move):
            continue
        tried += 1
        if hasattr(state, "can_apply"):
            assert state.can_apply(seat, copy.deepcopy(move)) is False, (
                f"[{ctx}] engine can_apply True for a move the model rejects: seat {seat} {move!r}")
        try:
            state.apply(seat, copy.deepcopy(move))
        except core.IllegalMove:
            pass
        except Exception as exc:
            raise AssertionError(
                f"[{ctx}] engine raised {type(exc).__name__}({exc}) instead of IllegalMove "
                f"for seat {seat} move {move!r}") from exc
        else:
            raise AssertionError(
                f"[{ctx}] engine accepted a move the model rejects: seat {seat} move {move!r}")
        after = J(state.snapshot())
        assert after == before, f"[{ctx}] engine state changed by rejected move {move!r}"


def play_both(state, model, rng, ctx0, probe_every=7, check_roundtrip=True):
    step = 0
    compare(state, model, f"{ctx0} step {step}")
    while not model.is_over:
        ctx = f"{ctx0} step {step}"
        seat = rng.choice(model.to_move)
        moves = model.legal_moves(seat)
        assert moves, f"[{ctx}] model has no move for seat {seat}"
        move = rng.choice(moves)
        if move["type"] == "select" and rng.random() < 0.5:
            shuffled = list(move["cards"])
            rng.shuffle(shuffled)  # apply accepts the cards in any order
            move = {"type": "select", "cards": shuffled}
        if step % probe_every == 0:
            probe_illegal(state, model, rng, ctx)
        try:
            state.apply(seat, copy.deepcopy(move))
        except Exception as exc:
            raise AssertionError(f"[{ctx}] engine rejected model-legal move seat {seat} {move!r}: "
                                 f"{type(exc).__name__}: {exc}") from exc
        model.apply(seat, move)
        step += 1
        compare(state, model, f"{ctx0} step {step} (after seat {seat} {move!r})")
        if check_roundtrip and step % 11 == 0 and not model.is_over:  # "over": see below
            snap = state.snapshot()
            rebuilt = core.from_snapshot(snap)
            same("from_snapshot(snapshot()).snapshot()", rebuilt.snapshot(), snap, ctx)
    assert list(state.to_move) == []
    same("final result()", state.result(), model.result(), ctx0)
    # after the end every move is illegal
    for seat in range(model.players):
        with pytest.raises(core.IllegalMove):
            state.apply(seat, {"type": "discard", "card": "crab"})
    return step


@settings(max_examples=120, deadline=None)
@given(players=st.integers(min_value=2, max_value=5),
       seed=st.integers(min_value=0, max_value=2**32 - 1),
       move_seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_engine_matches_model(players, seed, move_seed):
    state = core.new_game(GAME, players, seed=seed)
    model = CupCrabModel.from_snapshot(J(state.snapshot()))
    ctx = f"players={players} seed={seed} move_seed={move_seed}"
    steps = play_both(state, model, random.Random(move_seed), ctx)
    assert steps == 21 * players + 6 * players


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=2, max_value=5),
       first_player=st.integers(min_value=0, max_value=4),
       deal_seed=st.integers(min_value=0, max_value=2**32 - 1),
       prefix=st.integers(min_value=0, max_value=140))
def test_engine_from_model_positions(players, first_player, deal_seed, prefix):
    """Positions dealt and advanced by the model, loaded into the engine with from_snapshot."""
    first_player %= players
    rng = random.Random(deal_seed)
    model = new_deal(players, rng, first_player=first_player)
    # stop before the end: loading finished games is test_snapshot_roundtrip_every_phase's job
    for _ in range(min(prefix, 27 * players - 1)):
        seat = rng.choice(model.to_move)
        model.apply(seat, rng.choice(model.legal_moves(seat)))
    state = core.from_snapshot(model.snapshot())
    ctx = f"from_snapshot players={players} first={first_player} deal_seed={deal_seed} prefix={prefix}"
    play_both(state, model, rng, ctx)


def test_first_player_option():
    for players in range(2, 6):
        for fp in range(players):
            state = core.new_game(GAME, players, seed=1, options={"first_player": fp})
            model = CupCrabModel.from_snapshot(J(state.snapshot()))
            assert model.first_player == fp
            compare(state, model, f"players={players} first_player={fp}")


def test_example_positions():
    """The rulebook's Example 1 and 2 positions (built in tests/reference/test_model.py)."""
    from tests.reference import test_model as tm

    hands = [
        (tm.ex1, ["cup-3", "crab", "octopus"]),
        (tm.ex1, ["cup-6", "crab", "bottle"]),
        (tm.ex2, ["cup-1", "crab", "octopus"]),
        (tm.ex2, ["crab", "crab", "crab"]),
    ]
    for make, hand in hands:
        model = make(hand)
        state = core.from_snapshot(model.snapshot())
        ctx = f"example {make.__name__} hand={hand}"
        compare(state, model, ctx)
        play_both(state, model, random.Random(0), ctx)


def test_key_order_matches_docs():
    """JSON key order (docs/rules.md) -- byte-for-byte identical serialisations."""
    for players in (2, 5):
        state = core.new_game(GAME, players, seed=5)
        model = CupCrabModel.from_snapshot(J(state.snapshot()))
        rng = random.Random(3)
        while not model.is_over:
            for seat in list(range(players)) + [None]:
                assert json.dumps(state.view(seat)) == json.dumps(model.view(seat)), f"view({seat})"
            assert json.dumps(state.snapshot()) == json.dumps(model.snapshot())
            for seat in range(players):
                assert json.dumps(state.legal_moves(seat)) == json.dumps(model.legal_moves(seat))
            seat = rng.choice(model.to_move)
            move = rng.choice(model.legal_moves(seat))
            state.apply(seat, copy.deepcopy(move))
            model.apply(seat, move)
        assert json.dumps(state.result()) == json.dumps(model.result())


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_snapshot_roundtrip_every_phase(players):
    """core.from_snapshot must accept the engine's own snapshot in every phase, "over" included."""
    state = core.new_game(GAME, players, seed=players)
    rng = random.Random(players)
    while True:
        snap = state.snapshot()
        rebuilt = core.from_snapshot(snap)
        same("from_snapshot(snapshot()).snapshot()", rebuilt.snapshot(), snap,
             f"players={players} phase={snap['phase']} round={snap['round']} plays={snap['plays']}")
        if state.is_over:
            break
        seat = rng.choice(list(state.to_move))
        state.apply(seat, rng.choice(state.legal_moves(seat)))
