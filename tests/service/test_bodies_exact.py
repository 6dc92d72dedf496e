"""What the service sends is exactly its typed body: at every step of random games of both
games, for every seat and the spectator, the view, legal moves and history dicts that
the sessions build are the msgspec bodies of service.games.bodies field for field (nothing
dropped, added or coerced). This is what lets the service encode the dicts directly
instead of converting each one to its struct first (docs/benchmarks.md)."""

import random

import msgspec
import pytest

import core
from service.games import bodies
from service.games.meta import Clock, Meta
from service.games.sessions import Session, Sessions
from service.store import GameRecord

GAMES = [("cup-the-crab", 2, None), ("cup-the-crab", 5, None),
         ("crabe-vs-poulpe", 2, {"mode": "symmetrical"}),
         ("crabe-vs-poulpe", 2, {"mode": "asymmetrical"})]


def session_of(state: core.GameState, version: int) -> Session:
    meta = Meta(game=state.game, players=state.players, seeded=False,
                token_hashes=[None] * state.players, created=0.0, names=["Ann"] + [None] * (
                    state.players - 1), clock=Clock(30, "ai"), deadlines=[None] * state.players)
    session = Session("game-id", GameRecord(version, b"", b""), meta)
    session.state = state
    return session


def assert_exact(body: dict, typed_body) -> None:
    """body, converted to its struct and back, is itself (key order aside: JSON objects
    have none, and msgspec puts a struct's tag first)."""
    sent = msgspec.to_builtins(body)  # as encoded: the clock is a struct already
    assert msgspec.to_builtins(msgspec.convert(sent, typed_body)) == sent


@pytest.mark.parametrize("game, players, options", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_view_and_legal_moves_dict_is_its_typed_body_exactly(game, players, options,
                                                                      seed):
    state = core.new_game(game, players, seed=seed, options=options)
    rng, version = random.Random(seed), 0
    while True:
        session = session_of(state, version)
        for viewer in [*range(players), None]:
            view = Sessions.view(session, viewer)
            assert_exact(view, bodies.GameBody)
            assert_exact({"id": "game-id", "game": game, "version": version, "you": viewer,
                          "legal_moves": view["legal_moves"]}, bodies.LegalMovesBody)
        if state.is_over:
            return
        seat = rng.choice(state.to_move)
        state.apply(seat, rng.choice(state.legal_moves(seat)))
        version += 1


@pytest.mark.parametrize("game, players, options", GAMES)
def test_every_history_entry_is_its_typed_body_exactly(game, players, options):
    state = core.new_game(game, players, seed=9, options=options)
    rng, entries = random.Random(9), []
    while not state.is_over:
        seat = rng.choice(state.to_move)
        observed = state.observed_by(seat)
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move)
        entry = {"version": len(entries) + 1, "seat": seat, "kind": "move", "move": move}
        if observed is not None:
            entry["observed"] = observed
        entries.append(entry)
        for viewer in [*range(players), None]:
            assert_exact({"id": "game-id", "game": game, "version": len(entries), "entries": [
                Sessions.visible_entry(state, logged, viewer) for logged in entries]},
                bodies.HistoryBody)
