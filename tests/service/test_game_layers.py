"""Every game core registers has its service layer: typed bodies gathered in
service/games/bodies (one GameBodies each) and its creation variants in the document; a game
missing one fails here, named (its web module: tests/test_registry.py)."""

import core
from service.games import bodies
from service.games.bodies.common import GameBodies


def test_every_registered_game_has_its_bodies():
    assert tuple(bodies.GAMES) == core.GAMES
    for game in core.GAMES:
        found = bodies.GAMES[game]
        assert isinstance(found, GameBodies) and found.game == game, game
        assert found.body.__struct_config__.tag == game, f"{game}: its game body's tag"


def test_every_registered_game_is_in_the_document(client):
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for game in core.GAMES:
        prefix = bodies.GAMES[game].prefix
        for players in core.PLAYERS[game]:
            assert f"Create{prefix}{players}" in schemas, (game, players)
        for part in ("Game", "LegalMoves", "History", "Suggestion", "Event", "DeltaEvent"):
            assert f"{prefix}{part}" in schemas, (game, part)
