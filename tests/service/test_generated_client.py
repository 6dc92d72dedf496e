"""A client generated from the served document (openapi-python-client, as docs/api.md shows)
plays whole games through its typed models, and ends them as core computes."""

import importlib
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

import core

PACKAGE = "crab_client"


@pytest.fixture(scope="module")
def generated(api, tmp_path_factory) -> Iterator[SimpleNamespace]:
    """The client package, generated into a temporary directory and imported."""
    where = tmp_path_factory.mktemp("generated")
    document = where / "openapi.json"
    served = httpx.get(f"{api.url}/schema/openapi.json")
    assert served.status_code == 200, served.text
    document.write_bytes(served.content)
    # The export streams ndjson, which the generator reads as text when told so (docs/api.md).
    config = where / "config.json"
    config.write_text('{"content_type_overrides": {"application/x-ndjson": "text/plain"}}')
    run = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path",
                          str(document), "--meta", "none", "--output-path",
                          str(where / PACKAGE), "--config", str(config), "--fail-on-warning"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(where))
    try:
        games = importlib.import_module(f"{PACKAGE}.api.games")
        yield SimpleNamespace(
            client=importlib.import_module(f"{PACKAGE}.client"),
            models=importlib.import_module(f"{PACKAGE}.models"),
            **{name: importlib.import_module(f"{games.__name__}.{name}") for name in (
                "v1_games_create", "v1_games_game_id_read", "v1_games_game_id_legal_moves_legal_moves",
                "v1_games_game_id_moves_move", "v1_games_game_id_history_history")})
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def play_whole_game(gen, url: str, game: str, players: int, seed: int, typed: dict):
    """Random legal moves, chosen from the client's typed lists, until the game is over."""
    models = gen.models
    spectator = gen.client.Client(base_url=url, raise_on_unexpected_status=True)
    prefix = {"cup-the-crab": "CupCrab", "crabe-vs-poulpe": "Cvp"}[game]
    new_game = getattr(models, f"Create{prefix}{players}")  # one model per game and count
    created = gen.v1_games_create.sync(client=spectator, body=new_game(
        game=game, players=players, seed=seed))
    assert isinstance(created, models.Created) and created.version == 0
    seats = {seat.seat: gen.client.AuthenticatedClient(base_url=url, token=seat.token,
                                                       raise_on_unexpected_status=True)
             for seat in created.seats}
    rng, moves = random.Random(seed), []
    while True:
        view = gen.v1_games_game_id_read.sync(created.id, client=spectator)
        assert isinstance(view, typed["game"]) and view.you is None
        if view.status.value == "over":
            break
        seat = rng.choice(view.to_move)
        legal = gen.v1_games_game_id_legal_moves_legal_moves.sync(created.id, client=seats[seat])
        assert isinstance(legal, typed["legal"]) and legal.you == seat
        move = rng.choice(legal.legal_moves)
        assert isinstance(move, typed["moves"])
        after = gen.v1_games_game_id_moves_move.sync(created.id, client=seats[seat], body=(
            models.MoveRequest(move=move, expected_version=legal.version)))
        assert isinstance(after, typed["game"]) and after.version == legal.version + 1
        assert isinstance(after.view, typed["view"]) and after.view.seat == seat
        moves.append((seat, move.to_dict()))
    history = gen.v1_games_game_id_history_history.sync(created.id, client=seats[0])
    assert isinstance(history, typed["history"]) and len(history.entries) == len(moves)
    return view, moves


def replay_in_core(game: str, players: int, seed: int, moves) -> core.GameState:
    state = core.new_game(game, players, seed=seed)
    for seat, move in moves:
        state.apply(seat, move)
    return state


def assert_result_is_cores(result, state: core.GameState) -> None:
    """The typed result is core's, with how the game ended: played to the end."""
    sent = result.to_dict()
    assert {key: sent[key] for key in state.result()} == state.result()
    assert sent["reason"] == "finished" and sent["forfeited"] == []


def test_a_generated_client_plays_a_whole_game_of_cup_the_crab_with_3_players(api, generated):
    models = generated.models
    typed = {"game": models.CupCrabGame, "legal": models.CupCrabLegalMoves,
             "view": models.CupCrabView, "history": models.CupCrabHistory,
             "moves": (models.CupCrabSelect, models.CupCrabPlay, models.CupCrabNewStack,
                       models.CupCrabDiscard)}
    over, moves = play_whole_game(generated, api.url, "cup-the-crab", 3, 31, typed)
    assert isinstance(over.result, models.CupCrabResult)
    assert all(isinstance(rank, models.CupCrabRank) for rank in over.result.ranking)
    assert_result_is_cores(over.result, replay_in_core("cup-the-crab", 3, 31, moves))


def test_a_generated_client_plays_a_whole_game_of_crabe_vs_poulpe(api, generated):
    models = generated.models
    typed = {"game": models.CvpGame, "legal": models.CvpLegalMoves, "view": models.CvpView,
             "history": models.CvpHistory,
             "moves": (models.CvpPlay, models.CvpPass, models.CvpDecline, models.CvpCapture,
                       models.CvpPincer, models.CvpDiscard, models.CvpSearch, models.CvpGive,
                       models.CvpCopy)}
    over, moves = play_whole_game(generated, api.url, "crabe-vs-poulpe", 2, 8, typed)
    assert isinstance(over.result, models.CvpResult)
    assert over.result.winner in (0, 1)
    assert_result_is_cores(over.result, replay_in_core("crabe-vs-poulpe", 2, 8, moves))


def test_errors_come_back_as_the_typed_problem(api, generated):
    spectator = generated.client.Client(base_url=api.url)
    missing = generated.v1_games_game_id_read.sync("no-such-game", client=spectator)
    assert isinstance(missing, generated.models.Problem)
    assert missing.type_ == "/problems/game-not-found" and missing.status == 404
