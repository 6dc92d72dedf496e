"""Every game core registers has its service layer: typed bodies gathered in
service/bodies (one GameBodies each), its creation variants in the document, and a web
module the client draws it with; a game missing one fails here, named."""

from pathlib import Path

import core
from service import bodies
from service.bodies.common import GameBodies

WEB = Path(__file__).resolve().parents[2] / "service" / "web" / "js"


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


def test_every_registered_game_has_a_web_module_the_table_draws_it_with():
    table = (WEB / "table.js").read_text()
    for game in core.GAMES:
        assert f'"{game}":' in table, f"{game}: not in table.js's GAMES"
