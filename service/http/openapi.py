"""The OpenAPI document: the contract that clients are generated from.

Litestar lays out the paths and operations from the controllers; the schemas of the bodies
come from msgspec, which is what decodes and encodes them, so the document says exactly
what travels: closed request objects (`additionalProperties: false`, since unknown fields
are refused), tagged unions with their discriminators, card names as enums, bounds.
"""

from typing import Any, get_args

import msgspec
from litestar import Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin

import core
import core.ai
from service.arena.bodies import (
    ChallengeBody,
    ChallengeRequest,
    SeriesBody,
    SeriesGames,
    SeriesRequest,
)
from service.config import Settings
from service.games import bodies
from service.games.bodies.archived import ReviewRequest
from service.games.bodies.common import (
    Created,
    Health,
    Joined,
    Problem,
    Ready,
    WaitingList,
)
from service.games.limits import GameLimits
from service.games.requests import Budget, CreateGame, JoinRequest, MoveRequest
from service.http.exact_requests import NULL, REF, exact_requests
from service.http.openapi_links import links
from service.http.problem_types import description
from service.lobby.bodies import (
    PresenceRequest,
    Reaction,
    ReactionRequest,
    RematchOffered,
    TablePresence,
)
from service.matchmaking.bodies import QueueRequest, TicketBody
from service.players.bodies import (
    Leaderboard,
    NewPlayer,
    PlayerBody,
    PlayerCreated,
    PlayerGames,
    PlayerRename,
    Pools,
)
from service.players.events import EventKind
from service.tournaments.bodies import TournamentBody, TournamentGames, TournamentRequest
from service.tournaments.events import TournamentEventKind
from service.webhooks.bodies import SecretRotation, WebhookBody, WebhookSpec
from service.webhooks.decision import WebhookAnswer, WebhookDecision

PLAYER_BODIES = [NewPlayer, PlayerRename, PlayerCreated, PlayerBody, PlayerGames, Leaderboard,
                 Pools, QueueRequest, TicketBody, ChallengeRequest, ChallengeBody,
                 SeriesRequest, SeriesBody, SeriesGames, TournamentRequest, TournamentBody,
                 TournamentGames, WebhookSpec, WebhookBody, SecretRotation, WebhookDecision,
                 WebhookAnswer]

PROBLEM_JSON = "application/problem+json"
SWAGGER_ASSETS = "/schema/assets"

# Every body type of the API; msgspec also makes the schema of each struct they contain.
BODY_TYPES: list[Any] = [CreateGame, MoveRequest, Budget, JoinRequest, Created, Joined,
                         WaitingList, bodies.GameBody,
                         bodies.LegalMovesBody, bodies.HistoryBody, bodies.SuggestionBody,
                         *bodies.EVENTS.values(), *bodies.DELTA_EVENTS.values(),
                         Problem, Health, Ready, *bodies.MOVE_UNIONS.values(),
                         bodies.ReplayBody, bodies.ExportedGame, bodies.ReviewBody,
                         ReviewRequest, RematchOffered, PresenceRequest, TablePresence,
                         ReactionRequest, Reaction,
                         *PLAYER_BODIES]

def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The documented error responses of an operation: problem+json bodies, each described
    by the errors answered with its status."""
    return {status: ResponseSpec(data_container=Problem, media_type=PROBLEM_JSON,
                                 description=description(status), generate_examples=False)
            for status in statuses}


NOT_MODIFIED = {304: ResponseSpec(data_container=None, generate_examples=False,
                                  description="The representation named by If-None-Match is"
                                              " current: no body")}


def contract(document: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """Litestar's document with msgspec's schema of every body, the request bodies exact
    to this server's settings."""
    _, schemas = msgspec.json.schema_components(BODY_TYPES, ref_template=REF)
    exact_requests(schemas, settings)
    for name, union in bodies.MOVE_UNIONS.items():
        (schemas[name],), _ = msgspec.json.schema_components([union], ref_template=REF)
    any_move = {"oneOf": [{"$ref": REF.format(name=name)} for name in bodies.MOVE_UNIONS],
                "description": "a move of the game, as its legal_moves list it"}
    schemas["MoveRequest"]["properties"]["move"] = any_move
    schemas["WebhookAnswer"]["properties"]["move"] = any_move
    schemas["Problem"]["properties"]["legal_moves"]["items"] = any_move
    components = document.setdefault("components", {})
    components["schemas"] = schemas
    components["securitySchemes"] = {SEAT_TOKEN: {
        "type": "http", "scheme": "bearer",
        "description": "A seat's token, as POST /v1/games or a join returned it (shown"
                       " once). Optional everywhere: without one the caller is a spectator,"
                       " and what only a seat may do answers 401"}, PLAYER_KEY: {
        "type": "http", "scheme": "bearer",
        "description": "A player's key, as POST /v1/players returned it (shown once):"
                       " required by the matchmaking queue, /v1/players/me, challenges,"
                       " a series' start and stop and a tournament's changes, which answer"
                       " 401 without it (listed"
                       " as optional, as the seat's token, so that links can pass it on)"}}
    for operations in document["paths"].values():
        for operation in operations.values():
            _drop_litestar_default_400(operation)
    _seat_tokens(document)
    _player_keys(document)
    _parameters_not_null(document)
    links(document, _arena(settings))
    _event_streams(document)
    _ndjson(document)
    _header_schemas(document)
    return document


EVENT_STREAM = "text/event-stream"
NDJSON = "application/x-ndjson"


def _event_streams(document: dict[str, Any]) -> None:
    """An event stream is described event by event, as 3.1 tooling reads the schema of
    `text/event-stream` (3.2 names it `itemSchema`, which a 3.1 document may not carry):
    each event is an object of its SSE fields (`id`, `event`, `data`), whose `data` is
    JSON: a game event (`event: game`, the whole body) or, on a stream asked for with
    `delta=true`, a delta event (`event: delta`, a JSON Patch of the body)."""
    def sse(name: str, types: Any, what: str) -> dict[str, Any]:
        data = [{"$ref": REF.format(name=type_.__name__)} for type_ in types]
        return {"type": "object", "title": f"{name} event",
                "description": f"`id` the version, `event: {name}`, `data` {what} as JSON",
                "properties": {"id": {"type": "string", "pattern": r"^[0-9]+$"},
                               "event": {"const": name},
                               "data": {"type": "string", "contentMediaType": "application/json",
                                        "contentSchema": {"oneOf": data}}},
                "required": ["id", "event", "data"]}

    event = {"description": "One Server-Sent Event; comment lines (`: keep-alive`) carry"
                            " none.",
             "oneOf": [sse("game", bodies.EVENTS.values(), "the caller's game then"),
                       sse("delta", bodies.DELTA_EVENTS.values(),
                           "what changed in it since the version before"),
                       {"type": "object", "title": "reaction event",
                        "description": "`event: reaction` with no `id` (Last-Event-ID stays"
                                       " the version), `data` a Reaction as JSON: a quick"
                                       " reaction said at the table (POST .../reactions),"
                                       " heard once, never replayed",
                        "properties": {"event": {"const": "reaction"},
                                       "data": {"type": "string",
                                                "contentMediaType": "application/json",
                                                "contentSchema": {
                                                    "$ref": REF.format(name="Reaction")}}},
                        "required": ["event", "data"]}]}
    ticket = {"type": "object", "title": "ticket event",
              "description": "One Server-Sent Event: `event: ticket`, `data` the ticket as"
                             " JSON, at each change of its status; the stream ends once the"
                             " ticket is seated, cancelled or expired",
              "properties": {"event": {"const": "ticket"},
                             "data": {"type": "string", "contentMediaType": "application/json",
                                      "contentSchema": {"$ref": REF.format(name="TicketBody")}}},
              "required": ["event", "data"]}
    player_events = {"type": "object", "title": "player event",
             "description": "One Server-Sent Event of a player's stream: `id` the event's"
                            " (send it back as Last-Event-ID to resume), `event` its type,"
                            " `data` a JSON object whose `type` is the event's too"
                            " (docs/arena.md lists each type's fields)",
             "properties": {"id": {"type": "string", "pattern": r"^[0-9]+-[0-9]+$"},
                            "event": {"enum": list(get_args(EventKind))},
                            "data": {"type": "string", "contentMediaType": "application/json"}},
             "required": ["id", "event", "data"]}
    tournament_events = {
        **player_events, "title": "tournament event",
        "description": "One Server-Sent Event of a tournament's stream: `id` the event's"
                       " (send it back as Last-Event-ID to resume), `event` its type, `data`"
                       " a JSON object whose `type` is the event's too (docs/arena.md lists"
                       " each type's fields)",
        "properties": {**player_events["properties"],
                       "event": {"enum": list(get_args(TournamentEventKind))}}}
    streams = {"/v1/players/me/events": player_events,
               "/v1/tournaments/{tournament_id}/events": tournament_events}
    for path, operations in document["paths"].items():
        for operation in operations.values():
            for response in operation["responses"].values():
                stream = response.get("content", {}).get(EVENT_STREAM)
                if stream is not None:
                    stream["schema"] = ticket if path.startswith("/v1/queue/") else \
                        streams.get(path, event)


def _header_schemas(document: dict[str, Any]) -> None:
    """A response header Litestar documents (a review's Location) without the schema
    OpenAPI requires of one: every such header is a string."""
    for operations in document["paths"].values():
        for operation in operations.values():
            for response in operation["responses"].values():
                for header in response.get("headers", {}).values():
                    header.setdefault("schema", {"type": "string"})


def _ndjson(document: dict[str, Any]) -> None:
    """A newline-delimited JSON stream is described by the schema of one line."""
    for operations in document["paths"].values():
        for operation in operations.values():
            for response in operation["responses"].values():
                lines = response.get("content", {}).get(NDJSON)
                if lines is not None:
                    lines["schema"] = {"oneOf": [
                        {"$ref": REF.format(name=game.exported.__name__)}
                        for game in bodies.GAMES.values()]}
                    response["description"] = "One exported game per line"


SEAT_TOKEN = "seatToken"
GAMES, GAME = "/v1/games", "/v1/games/{game_id}"
# A seat's token is a capability of one seat, not a login: without one, a caller is a
# spectator, whose reads and event stream work, and what only a seat may do (moves,
# suggestions, leaving, a rematch) answers 401. OpenAPI has no word for that, so every
# operation lists the token as optional (`{}` or the token). Declaring it required where a
# spectator is refused would also have generic checkers (schemathesis' ignored_auth) take
# a token passed along by a link for an invented one, and its success for a server that
# ignores authentication.
_OPTIONAL = [{}, {SEAT_TOKEN: []}]
_TOKEN_TAKEN = [(GAME, "get"), (f"{GAME}/legal-moves", "get"), (f"{GAME}/history", "get"),
                (f"{GAME}/events", "get"), (f"{GAME}/moves", "post"),
                (f"{GAME}/suggest", "post"), (f"{GAME}/leave", "post"),
                (f"{GAME}/rematch", "post"), (f"{GAME}/rematch/decline", "post"),
                (f"{GAME}/resign", "post"), (f"{GAME}/presence", "post"),
                (f"{GAME}/reactions", "post")]
# Authorization as the header a link passes on: OpenAPI tells tools to ignore a header
# parameter of this name (the security scheme describes it), but a link can only name the
# request's header (`$request.header.Authorization`) where the operation declares it.
_AUTHORIZATION = {"name": "Authorization", "in": "header", "required": False,
                  "description": "`Bearer <seat token>` (the seatToken scheme)",
                  "schema": {"type": "string", "pattern": r"^Bearer [A-Za-z0-9_-]{1,64}$"}}


# A player's key is a login: the operations that need one refuse a caller without it
# (401). They list it as optional all the same, as the seat's token: a key passed on by a
# link is one a generic checker cannot tell from an invented one, so a required scheme
# made schemathesis' ignored_auth take the success of a request with the real key, passed
# on from POST /v1/players, for a server that ignores authentication.
PLAYER_KEY = "playerKey"
_KEY_TAKEN = [("/v1/players/me", "get"), ("/v1/players/me", "patch"), ("/v1/queue", "post"),
              ("/v1/queue/{ticket_id}", "get"), ("/v1/queue/{ticket_id}", "delete"),
              ("/v1/queue/{ticket_id}/events", "get"), ("/v1/players/me/events", "get"),
              ("/v1/challenges", "post"), ("/v1/challenges/{challenge_id}", "get"),
              ("/v1/challenges/{challenge_id}", "delete"),
              ("/v1/challenges/{challenge_id}/accept", "post"),
              ("/v1/challenges/{challenge_id}/decline", "post"), ("/v1/series", "post"),
              ("/v1/series/{series_id}", "delete"), ("/v1/tournaments", "post"),
              ("/v1/tournaments/{tournament_id}", "delete"),
              ("/v1/tournaments/{tournament_id}/start", "post"),
              ("/v1/tournaments/{tournament_id}/entrants/{entrant_id}", "put"),
              ("/v1/tournaments/{tournament_id}/entrants/{entrant_id}", "delete"),
              ("/v1/players/me/webhook", "get"),
              ("/v1/players/me/webhook", "put"), ("/v1/players/me/webhook", "delete"),
              ("/v1/players/me/webhook/secret", "post")]


# As a seat's token, so that links can pass a player's key on to its next request.
_KEY_HEADER = {**_AUTHORIZATION, "description": "`Bearer <player key>` (the playerKey scheme)"}


def _player_keys(document: dict[str, Any]) -> None:
    for path, method in _KEY_TAKEN:
        operation = document["paths"][path][method]
        operation["security"] = [{}, {PLAYER_KEY: []}]
        operation.setdefault("parameters", []).append(_KEY_HEADER)


def _arena(settings: Settings) -> dict[str, Any] | None:
    """A game, table size and AI level this server plays: what the links that start a
    game at once (a ticket the AI fills, a challenge or series of AI levels) ask for."""
    levels = GameLimits.of(settings).levels()
    played = [game for game in core.GAMES if core.ai.supports(game)]
    if not levels or not played:
        return None
    game = min(played, key=lambda name: min(core.PLAYERS[name]))
    return {"game": game, "players": min(core.PLAYERS[game]), "level": levels[0]}


def _seat_tokens(document: dict[str, Any]) -> None:
    for path, method in _TOKEN_TAKEN:
        operation = document["paths"][path][method]
        operation["security"] = _OPTIONAL
        operation.setdefault("parameters", []).append(_AUTHORIZATION)


def _parameters_not_null(document: dict[str, Any]) -> None:
    """An optional parameter is absent or a value: never null, which a query or a header
    cannot carry (Litestar writes `T | None` as a schema that allows null)."""
    for operations in document["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = parameter["schema"]
                for union in ("oneOf", "anyOf"):
                    kept = [branch for branch in schema.get(union, []) if branch != NULL]
                    if len(kept) == 1:
                        del schema[union]
                        schema.update(kept[0])
                if isinstance(schema.get("type"), list) and "null" in schema["type"]:
                    schema["type"] = next(kind for kind in schema["type"] if kind != "null")
                if "enum" in schema:
                    schema["enum"] = [value for value in schema["enum"] if value is not None]


def _drop_litestar_default_400(operation: dict[str, Any]) -> None:
    """Litestar documents a 400 of its own shape on operations with parameters; ours is
    problem+json, and listed where it can happen."""
    response = operation.get("responses", {}).get("400")
    if response is not None and PROBLEM_JSON not in response.get("content", {}):
        del operation["responses"]["400"]


class ContractJson(JsonRenderPlugin):
    """Serves the contract at /schema/openapi.json (made once per process)."""

    def __init__(self) -> None:
        super().__init__()
        self._rendered: bytes | None = None

    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        if self._rendered is None:
            self._rendered = msgspec.json.encode(
                contract(openapi_schema, request.app.state.settings))
        return self._rendered


def openapi_config() -> OpenAPIConfig:
    ui = SwaggerRenderPlugin(  # assets served from this process: works offline
        path="/", favicon="", js_url=f"{SWAGGER_ASSETS}/swagger-ui-bundle.js",
        css_url=f"{SWAGGER_ASSETS}/swagger-ui.css",
        standalone_preset_js_url=f"{SWAGGER_ASSETS}/swagger-ui-standalone-preset.js")
    return OpenAPIConfig(title="Crab engines", version="1", path="/schema",
                         render_plugins=[ui, ContractJson()],
                         description="Cup the Crab and Crabe vs Poulpe as a JSON API."
                                     " Errors are RFC 9457 problem+json.")
