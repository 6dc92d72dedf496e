"""Request schemas exactly as this server decides: what the document allows, it accepts.

msgspec describes each request struct field by field, but some rules tie fields together
(a seat per player, `first_player` a seat of this game, exactly one AI budget) or depend on
this server's settings (the shortest turn clock, the AI's caps). A generator that reads
only the document (schemathesis, a typed client) must not be able to build a request the
server then refuses, nor the other way round, so those schemas are written out here in
full: a new game, a challenge and a series as one variant per game and player count
(CreateCupCrab3, ChallengeCvp2, SeriesCupCrab4), a queue ticket as one per game, a budget
as one variant per kind of budget, each within this server's limits (service/games/limits.py).
"""

from typing import Any, get_args

import core
import core.ai
from service.arena.bodies import CHALLENGE_TURN_SECONDS, SERIES_TURN_SECONDS
from service.config import Settings
from service.games import bodies
from service.games.limits import GameLimits
from service.tournaments.bodies import TOURNAMENT_TURN_SECONDS, Format

REF = "#/components/schemas/{name}"
NULL = {"type": "null"}
BUDGET_KINDS = ("level", "iterations", "time_ms")


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, NULL], "default": None}


def highest_level(settings: Settings) -> int | None:
    """The strongest AI level whose budget fits this server's iteration cap."""
    fitting = [level for level, budget in core.ai.LEVELS.items()
               if budget["iterations"] <= settings.ai_max_iterations]
    return max(fitting, default=None)


def budget_bounds(settings: Settings) -> dict[str, dict[str, Any]]:
    bounds = {"iterations": {"type": "integer", "minimum": 1,
                             "maximum": settings.ai_max_iterations},
              "time_ms": {"type": "integer", "minimum": 1,
                          "maximum": settings.ai_max_time_ms}}
    level = highest_level(settings)
    if level is not None:
        bounds["level"] = {"type": "integer", "minimum": min(core.ai.LEVELS), "maximum": level,
                           "description": "a measured strength level (docs/ai.md)"}
    return bounds


def budget_variants(settings: Settings, extra: dict[str, Any],
                    required: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    """One object schema per kind of budget, by the kind's name: that field set, the
    others absent or null."""
    variants = {}
    for kind, bound in budget_bounds(settings).items():
        properties = {**extra, **{other: NULL for other in BUDGET_KINDS}, kind: bound}
        variants[kind] = {"type": "object", "properties": properties,
                          "required": [*required, kind], "additionalProperties": False}
    return variants


def named(schemas: dict[str, Any], prefix: str, variants: dict[str, dict[str, Any]]
          ) -> list[dict[str, str]]:
    """Each variant as a component of its own (generators name a union's members by them),
    and the references to them."""
    refs = []
    for kind, variant in variants.items():
        name = prefix.removesuffix("Request") + "".join(
            part[:1].upper() + part[1:] for part in kind.split("_"))
        schemas[name] = {"title": name, **variant}
        refs.append({"$ref": REF.format(name=name)})
    return refs


def budget(settings: Settings, schemas: dict[str, Any]) -> dict[str, Any]:
    return {"title": "Budget", "description": schemas["Budget"].get("description", ""),
            "oneOf": named(schemas, "BudgetBy", budget_variants(settings, {}))}


def seat_spec(settings: Settings, schemas: dict[str, Any]) -> dict[str, Any]:
    """A human or open seat (no budget), or an AI seat with exactly one budget."""
    described = schemas["SeatSpec"]
    name = described["properties"]["name"]
    no_budget = {kind: NULL for kind in BUDGET_KINDS}
    person = {"type": "object",
              "properties": {"type": {"enum": ["human", "open"], "default": "human"},
                             "name": name, "player": NULL, **no_budget},
              "additionalProperties": False}
    player = {"type": "object",
              "properties": {"type": {"const": "human", "default": "human"}, "name": name,
                             "player": described["properties"]["player"]["anyOf"][0],
                             **no_budget},
              "required": ["player"], "additionalProperties": False}
    robots = budget_variants(settings, {"type": {"const": "ai"}, "name": name,
                                        "player": NULL}, ("type",))
    return {"title": "SeatSpec", "description": described.get("description", ""),
            "oneOf": [*named(schemas, "Seat", {"human_or_open": person, "of_player": player}),
                      *named(schemas, "AiSeatBy", robots)]}


def game_options(game: str, players: int, described: dict[str, Any]) -> dict[str, Any]:
    properties = {key: value for key, value in described["properties"].items()
                  if key in core.OPTIONS[game]}
    if "first_player" in properties:
        properties["first_player"] = nullable(
            {"type": "integer", "minimum": 0, "maximum": players - 1})
    return {"type": "object", "properties": properties, "additionalProperties": False}


def variant_name(game: str, players: int) -> str:
    """The schema name of a new game of game for players (CreateCupCrab3, CreateCvp2)."""
    return f"Create{bodies.GAMES[game].prefix}{players}"


def create_variant(game: str, players: int, settings: Settings,
                   schemas: dict[str, Any]) -> dict[str, Any]:
    base = schemas["CreateGame"]["properties"]
    properties = {
        **base,
        "game": {"const": game},
        "players": {"const": players},
        "options": nullable(game_options(game, players, schemas["GameOptions"])),
        "seats": nullable({"type": "array", "items": {"$ref": REF.format(name="SeatSpec")},
                           "minItems": players, "maxItems": players,
                           "description": "one entry per player, in seat order"}),
        "seed": nullable({"type": "integer", "minimum": 0, "maximum": 2**64 - 1,
                          "description": "the deal's seed (a seeded game is unrated)"}),
        "turn_seconds": nullable({"type": "integer", "minimum": settings.turn_seconds_min,
                                  "maximum": 86_400,
                                  "description": "this server's shortest clock to a day"}),
    }
    return {"title": variant_name(game, players),
            "description": f"A new game of {game} for {players} players.", "type": "object",
            "properties": properties, "required": ["game", "players"],
            "additionalProperties": False}


def contestant_id(settings: Settings) -> dict[str, Any]:
    """A player's id, or an AI level's that this server plays (its search fits the cap)."""
    levels = "".join(map(str, GameLimits.of(settings).levels()))
    ai = f"|ai-[{levels}]" if levels else ""
    return {"type": "string", "pattern": f"^(p_[A-Za-z0-9_-]{{16}}{ai})$",
            "description": "a player's id, or ai-N for an AI level this server plays"}


def turn_seconds(settings: Settings, default: int) -> dict[str, Any]:
    shortest = GameLimits.of(settings).clock_within(default)
    return nullable({"type": "integer", "minimum": settings.turn_seconds_min,
                     "maximum": GameLimits.TURN_SECONDS_MAX,
                     "description": f"each decision's clock; null or absent: {shortest}"})


def challenge_variant(game: str, players: int, settings: Settings,
                      schemas: dict[str, Any]) -> dict[str, Any]:
    """A challenge to a table of players: players - 1 opponents, a seat of that table."""
    properties = {
        **schemas["ChallengeRequest"]["properties"],
        "game": {"const": game},
        "opponents": {"type": "array", "items": contestant_id(settings),
                      "minItems": players - 1, "maxItems": players - 1,
                      "description": "the other seats' contestants"},
        "options": nullable(game_options(game, players, schemas["TableOptions"])),
        "turn_seconds": turn_seconds(settings, CHALLENGE_TURN_SECONDS),
        "seat": nullable({"type": "integer", "minimum": 0, "maximum": players - 1,
                          "description": "the challenger's seat; null or absent: random"}),
    }
    return {"description": f"A challenge to a game of {game} for {players} players.",
            "type": "object", "properties": properties, "required": ["game", "opponents"],
            "additionalProperties": False}


def series_variant(game: str, players: int, settings: Settings,
                   schemas: dict[str, Any]) -> dict[str, Any]:
    """A series at a table of players: as many contestants as seats."""
    properties = {
        **schemas["SeriesRequest"]["properties"],
        "game": {"const": game},
        "players": {"const": players},
        "contestants": {"type": "array", "items": contestant_id(settings),
                        "minItems": players, "maxItems": players,
                        "description": "one per seat, rotated every game of a deal"},
        "options": nullable(game_options(game, players, schemas["TableOptions"])),
        "turn_seconds": turn_seconds(settings, SERIES_TURN_SECONDS),
    }
    return {"description": f"A series of {game} for {players} players.", "type": "object",
            "properties": properties, "required": ["game", "players", "contestants"],
            "additionalProperties": False}


def queue_variant(game: str, settings: Settings, schemas: dict[str, Any]) -> dict[str, Any]:
    """A ticket for a table size the game has; AI fill only where an AI level plays."""
    fill = schemas["QueueRequest"]["properties"]["fill_with_ai_after"]
    properties = {**schemas["QueueRequest"]["properties"], "game": {"const": game},
                  "players": {"type": "integer", "enum": list(core.PLAYERS[game])},
                  "fill_with_ai_after": fill if GameLimits.of(settings).levels() else NULL}
    return {"description": f"A ticket for a rated game of {game}.", "type": "object",
            "properties": properties, "required": ["game", "players"],
            "additionalProperties": False}


def tournament_variant(game: str, players: int, tournament_format: str, settings: Settings,
                       schemas: dict[str, Any]) -> dict[str, Any]:
    """A tournament of one format at tables of players: a round robin's rounds follow from
    its entrants (none may be asked), a Swiss may ask how many; an entrant enters once."""
    properties = schemas["TournamentRequest"]["properties"]
    properties = {
        **properties, "game": {"const": game}, "format": {"const": tournament_format},
        "players": {"const": players, "default": 2} if players == 2 else {"const": players},
        "rounds": NULL if tournament_format == "round-robin" else properties["rounds"],
        "options": nullable(game_options(game, players, schemas["TableOptions"])),
        "turn_seconds": turn_seconds(settings, TOURNAMENT_TURN_SECONDS),
        "entrants": {**properties["entrants"], "items": contestant_id(settings),
                     "uniqueItems": True}}
    return {"description": f"A {tournament_format} tournament of {game} at tables of"
                           f" {players}.", "type": "object", "properties": properties,
            "required": ["game", "format", *(["players"] if players != 2 else [])],
            "additionalProperties": False}


def one_of(schemas: dict[str, Any], name: str, variants: dict[str, dict[str, Any]]) -> None:
    """schemas[name] as the union of its variants, each a component of its own."""
    described = schemas[name].get("description", "")
    schemas[name] = {"title": name, "description": described,
                     "oneOf": named(schemas, name, variants)}


def tables() -> list[tuple[str, int]]:
    return [(game, players) for game in core.GAMES for players in core.PLAYERS[game]]


def exact_requests(schemas: dict[str, Any], settings: Settings) -> None:
    """Replaces the request schemas msgspec made with the exact ones, in place."""
    variants = []
    for game, players in tables():
        name = variant_name(game, players)
        schemas[name] = create_variant(game, players, settings, schemas)
        variants.append({"$ref": REF.format(name=name)})
    schemas["CreateGame"] = {"title": "CreateGame",
                             "description": schemas["CreateGame"].get("description", ""),
                             "oneOf": variants}
    # ChallengeCupCrab3, SeriesCvp2, QueueCupCrab, ...: a game per variant, as CreateGame.
    prefix = {game: bodies.GAMES[game].prefix for game in core.GAMES}
    one_of(schemas, "ChallengeRequest", {
        f"{prefix[game]}{players}": challenge_variant(game, players, settings, schemas)
        for game, players in tables()})
    one_of(schemas, "SeriesRequest", {
        f"{prefix[game]}{players}": series_variant(game, players, settings, schemas)
        for game, players in tables()})
    one_of(schemas, "TournamentRequest", {
        f"{prefix[game]}{players}_{kind.replace('-', '_')}": tournament_variant(
            game, players, kind, settings, schemas)
        for game, players in tables() for kind in get_args(Format)})
    one_of(schemas, "QueueRequest", {
        prefix[game]: queue_variant(game, settings, schemas) for game in core.GAMES})
    schemas["SeatSpec"] = seat_spec(settings, schemas)
    schemas["Budget"] = budget(settings, schemas)
    del schemas["GameOptions"]  # each variant says which options its game takes
