"""Helpers that play through the HTTP API exactly as a client would."""

import random
from typing import Any

import httpx

import core


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: httpx.Client, game: str, players: int, **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json={"game": game, "players": players, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}


def play_to_end(client: httpx.Client, created: dict[str, Any], seed: int,
                check=None) -> list[tuple[int, dict[str, Any]]]:
    """Plays random legal moves (from the API's own lists) to the end; returns the moves."""
    rng = random.Random(seed)
    tokens = tokens_of(created)
    game_id, moves = created["id"], []
    while True:
        spectator = client.get(f"/v1/games/{game_id}").json()
        if spectator["status"] == "over":
            return moves
        seat = rng.choice(spectator["to_move"])
        view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        move = rng.choice(view["legal_moves"])
        response = client.post(f"/v1/games/{game_id}/moves", json={
            "move": move, "expected_version": view["version"]}, headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
        assert response.json()["version"] == view["version"] + 1
        moves.append((seat, move))
        if check is not None:
            check(seat, response.json())


def replay_in_core(game: str, players: int, seed: int, moves, options=None) -> core.GameState:
    state = core.new_game(game, players, seed=seed, options=options)
    for seat, move in moves:
        state.apply(seat, move)
    return state
