"""Differential test: the compiled engine (``core``) against the pure-Python reference model.

For random deck modes, seeds and move sequences, every observable output of the engine
(to_move, legal_moves and legal_actions of both seats, the view of both seats and of a
spectator, snapshot, is_over, result) must equal the model's, at every step.  Both share
the PRNG algorithm, so the shuffles of Pincer and Search agree card by card.  Moves the
model rejects must raise ``core.IllegalMove`` in the engine and leave its state unchanged.
"""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from tests.reference.cvp import CARD_NAMES, COPYABLE, CrabeVsPoulpeModel

GAME = "crabe-vs-poulpe"
BASES = {"play": 0, "pincer": 39, "discard": 75, "search": 111, "give": 147}


def J(x):
    return json.loads(json.dumps(x))


def first_diff(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: engine {a!r} != model {b!r}"
    if isinstance(a, dict):
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
            return f"{path}: engine {a!r} != model {b!r}"
        return None
    return None if a == b else f"{path}: engine {a!r} != model {b!r}"


def same(what, engine_value, model_value, ctx):
    e, m = J(engine_value), J(model_value)
    if e != m:
        raise AssertionError(f"[{ctx}] {what} differs: {first_diff(e, m)}")


def action_id(move):
    """The fixed integer id of a move, as docs/rules.md documents it."""
    kind = move["type"]
    if kind in BASES:
        return BASES[kind] + CARD_NAMES.index(move["card"])
    if kind == "copy":
        return 183 + COPYABLE.index(move["effect"])
    return {"pass": 36, "decline": 37, "capture": 38}[kind]


def compare(state, model, ctx):
    assert list(state.to_move) == model.to_move, f"[{ctx}] to_move differs"
    assert state.is_over == model.is_over, f"[{ctx}] is_over differs"
    for seat in (0, 1):
        moves = model.legal_moves(seat)
        same(f"legal_moves({seat})", state.legal_moves(seat), moves, ctx)
        same(f"legal_actions({seat})", state.legal_actions(seat), [action_id(m) for m in moves], ctx)
    for seat in (0, 1, None):
        same(f"view({seat})", state.view(seat), model.view(seat), ctx)
    same("snapshot()", state.snapshot(), model.snapshot(), ctx)
    same("result()", state.result(), model.result(), ctx)


UNIVERSE = ([{"type": t, "card": c} for t in BASES for c in CARD_NAMES]
            + [{"type": t} for t in ("pass", "decline", "capture")]
            + [{"type": "copy", "effect": e} for e in COPYABLE + ["mimic", "resist"]])
MALFORMED = [None, "pass", ["play", "crab-1"], {}, {"type": "play"}, {"card": "crab-1"},
             {"type": "play", "card": "crab-11"}, {"type": "play", "card": "CRAB-1"},
             {"type": "play", "card": "crab-1", "x": 0}, {"type": "pass", "card": None},
             {"type": "copy", "effect": 3}, {"type": "give", "card": ["crab-1"]},
             {"type": "resist", "card": "crab-1"}, {"type": "draw"}]


def model_accepts(model, seat, move):
    trial = copy.deepcopy(model)
    try:
        trial.apply(seat, copy.deepcopy(move))
    except ValueError:
        return False
    return True


def probe_illegal(state, model, rng, ctx, n=4):
    before = state.to_bytes()
    tried = attempts = 0
    while tried < n and attempts < 60:
        attempts += 1
        seat = rng.randrange(2)
        move = rng.choice(MALFORMED) if rng.random() < 0.2 else rng.choice(UNIVERSE)
        if model_accepts(model, seat, move):
            continue
        tried += 1
        assert not state.can_apply(seat, copy.deepcopy(move)), f"[{ctx}] can_apply {move!r}"
        with pytest.raises(core.IllegalMove):
            state.apply(seat, copy.deepcopy(move))
        assert state.to_bytes() == before, f"[{ctx}] a refused move {move!r} changed the state"


def play_both(state, model, rng, ctx0, roundtrip_every=9):
    step = 0
    compare(state, model, f"{ctx0} step 0")
    while not model.is_over:
        ctx = f"{ctx0} step {step}"
        seat = model.to_move[0]
        move = rng.choice(model.legal_moves(seat))
        if step % 5 == 0:
            probe_illegal(state, model, rng, ctx)
        state.apply(seat, copy.deepcopy(move))
        model.apply(seat, move)
        step += 1
        compare(state, model, f"{ctx0} step {step} (after seat {seat} {move!r})")
        if step % roundtrip_every == 0:
            same("from_snapshot(snapshot())", core.from_snapshot(state.snapshot()).snapshot(),
                 state.snapshot(), ctx)
            assert core.from_bytes(state.to_bytes()).to_bytes() == state.to_bytes()
    for seat in (0, 1):
        with pytest.raises(core.IllegalMove, match="game is over"):
            state.apply(seat, {"type": "pass"})
    return step


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from(["symmetrical", "asymmetrical"]),
       seed=st.integers(0, 2 ** 64 - 1), move_seed=st.integers(0, 2 ** 32 - 1),
       first=st.sampled_from([None, 0, 1]))
def test_engine_matches_model_from_the_deal(mode, seed, move_seed, first):
    options = {"mode": mode, "first_player": first}
    state = core.new_game(GAME, 2, seed=seed, options=options)
    model = CrabeVsPoulpeModel.new_game(seed, options)   # the same deal, card by card
    play_both(state, model, random.Random(move_seed), f"{mode} seed={seed} moves={move_seed}")


@settings(max_examples=40, deadline=None)
@given(mode=st.sampled_from(["symmetrical", "asymmetrical"]),
       seed=st.integers(0, 2 ** 32 - 1), prefix=st.integers(0, 120),
       reseed=st.integers(0, 2 ** 64 - 1))
def test_engine_matches_model_from_snapshots_of_model_positions(mode, seed, prefix, reseed):
    """Positions reached by the model, loaded into the engine, then played on by both."""
    rng = random.Random(seed)
    model = CrabeVsPoulpeModel.new_game(seed, {"mode": mode})
    for _ in range(prefix):
        if model.is_over:
            break
        seat = model.to_move[0]
        model.apply(seat, rng.choice(model.legal_moves(seat)))
    state = core.from_snapshot(model.snapshot(), seed=reseed)
    model = CrabeVsPoulpeModel.from_snapshot(model.snapshot(), seed=reseed)
    play_both(state, model, rng, f"{mode} seed={seed} prefix={prefix}")


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_engine_matches_model_with_custom_decks(data):
    """Another composition through options: every species card on both sides, fewer numbers."""
    # At most 2 copies of each of a colour's 18 faces: 36 cards, within the 40 allowed.
    deck = {name: data.draw(st.integers(0, 2), label=name) for name in CARD_NAMES}
    for colour in ("crab", "octopus"):
        if sum(n for name, n in deck.items() if name.startswith(colour)) < 5:
            deck[f"{colour}-5"] = 5
    seed = data.draw(st.integers(0, 2 ** 64 - 1), label="seed")
    state = core.new_game(GAME, 2, seed=seed, options={"deck": deck})
    model = CrabeVsPoulpeModel.new_game(seed, {"deck": deck})
    play_both(state, model, random.Random(seed), f"custom seed={seed}")
