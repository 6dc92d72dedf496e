"""The OpenAPI document: the contract that clients are generated from.

Litestar lays out the paths and operations from the controllers; the schemas of the bodies
come from msgspec, which is what decodes and encodes them, so the document says exactly
what travels: closed request objects (`additionalProperties: false`, since unknown fields
are refused), tagged unions with their discriminators, card names as enums, bounds.
"""

from typing import Any

import msgspec
from litestar import Request
from litestar.openapi import OpenAPIConfig
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin

from service import bodies
from service.bodies.common import Created, Health, Joined, Problem, Ready, WaitingList
from service.schemas import Budget, CreateGame, JoinRequest, MoveRequest

PROBLEM_JSON = "application/problem+json"
SWAGGER_ASSETS = "/schema/assets"
REF = "#/components/schemas/{name}"

# Every body type of the API; msgspec also makes the schema of each struct they contain.
BODY_TYPES: list[Any] = [CreateGame, MoveRequest, Budget, JoinRequest, Created, Joined,
                         WaitingList, bodies.GameBody,
                         bodies.LegalMovesBody, bodies.HistoryBody, bodies.SuggestionBody,
                         *bodies.EVENTS.values(), *bodies.DELTA_EVENTS.values(),
                         Problem, Health, Ready, *bodies.MOVE_UNIONS.values()]

_WHEN = {
    400: "The body is not JSON, or does not match the schema (`malformed-request`,"
         " `invalid-request`)",
    401: "The token opens no seat of this game, or a seat's token is required"
         " (`unauthorized`)",
    404: "No game has this id, or it expired after going idle (`game-not-found`)",
    409: "The game moved on (`version-conflict`, with `current_version`), the seat has"
         " nothing to decide now (`not-your-turn`), the game waits for players"
         " (`game-waiting`), a seat is taken or the game full (`seat-taken`, `game-full`),"
         " the game started (`game-started`) or is not over (`game-not-over`)",
    413: "The body is larger than the server accepts (`body-too-large`)",
    422: "Understood but refused: the game or its options (`invalid-game`), the move"
         " (`illegal-move`, with `legal_moves`), the AI budget (`budget-refused`), a reused"
         " idempotency key (`idempotency-key-reused`), a seat that does not exist"
         " (`no-such-seat`), a cursor this API did not give (`invalid-cursor`)",
    429: "Over the rate limit of this client address (creates, joins) or seat token"
         " (moves, suggestions): `rate-limited`, with `Retry-After` and the RateLimit"
         " headers",
    503: "The game store cannot be reached (`store-unavailable`), or the AI is busy with"
         " other suggestions (`ai-busy`); nothing was changed, `Retry-After` says when to"
         " retry",
}


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The documented error responses of an operation: problem+json bodies."""
    return {status: ResponseSpec(data_container=Problem, media_type=PROBLEM_JSON,
                                 description=_WHEN[status], generate_examples=False)
            for status in statuses}


NOT_MODIFIED = {304: ResponseSpec(data_container=None, generate_examples=False,
                                  description="The representation named by If-None-Match is"
                                              " current: no body")}


def contract(document: dict[str, Any]) -> dict[str, Any]:
    """Litestar's document with msgspec's schema of every body."""
    _, schemas = msgspec.json.schema_components(BODY_TYPES, ref_template=REF)
    for name, union in bodies.MOVE_UNIONS.items():
        (schemas[name],), _ = msgspec.json.schema_components([union], ref_template=REF)
    any_move = {"oneOf": [{"$ref": REF.format(name=name)} for name in bodies.MOVE_UNIONS],
                "description": "a move of the game, as its legal_moves list it"}
    schemas["MoveRequest"]["properties"]["move"] = any_move
    schemas["Problem"]["properties"]["legal_moves"]["items"] = any_move
    components = document.setdefault("components", {})
    components["schemas"] = schemas
    components["securitySchemes"] = {SEAT_TOKEN: {
        "type": "http", "scheme": "bearer",
        "description": "A seat's token, as POST /v1/games returned it (shown once)"}}
    for operations in document["paths"].values():
        for operation in operations.values():
            _drop_litestar_default_400(operation)
    _seat_tokens(document)
    _links(document)
    _event_streams(document)
    return document


EVENT_STREAM = "text/event-stream"


def _event_streams(document: dict[str, Any]) -> None:
    """An event stream's body is text (Litestar leaves its schema empty, i.e. anything);
    the data of each event is one of the game's event schemas, which the document lists."""
    events = " or ".join(f"`{type_.__name__}`" for type_ in bodies.EVENTS.values())
    deltas = " or ".join(f"`{type_.__name__}`" for type_ in bodies.DELTA_EVENTS.values())
    for operations in document["paths"].values():
        for operation in operations.values():
            for response in operation["responses"].values():
                stream = response.get("content", {}).get(EVENT_STREAM)
                if stream is not None:
                    stream["schema"] = {"type": "string", "description": (
                        f"Server-Sent Events: `id:` the version, `event: game`, `data:` a"
                        f" {events} as JSON; with `delta=true`, also `event: delta`,"
                        f" `data:` a {deltas} as JSON")}


SEAT_TOKEN = "seatToken"
GAMES, GAME = "/v1/games", "/v1/games/{game_id}"
# Reads and the event stream work without a token too (as a spectator); what a seat does
# (moves, suggestions, leaving, a rematch) needs its token.
_OPTIONAL, _REQUIRED = [{}, {SEAT_TOKEN: []}], [{SEAT_TOKEN: []}]
_TOKEN_TAKEN = {(GAME, "get"): _OPTIONAL, (f"{GAME}/legal-moves", "get"): _OPTIONAL,
                (f"{GAME}/history", "get"): _OPTIONAL, (f"{GAME}/events", "get"): _OPTIONAL,
                (f"{GAME}/moves", "post"): _REQUIRED, (f"{GAME}/suggest", "post"): _REQUIRED,
                (f"{GAME}/leave", "post"): _REQUIRED, (f"{GAME}/rematch", "post"): _REQUIRED}
MAX_SEATS = 5  # the most seats a game has: one link per seat's token


def _seat_tokens(document: dict[str, Any]) -> None:
    for (path, method), security in _TOKEN_TAKEN.items():
        document["paths"][path][method]["security"] = security


def _links(document: dict[str, Any]) -> None:
    """OpenAPI links: how a client (and a stateful fuzzer) goes from a created game to its
    reads and moves. A seat's token travels in Authorization, from the create response to
    that seat's reads; from there on the client keeps sending it (a link cannot say
    `$request.header.Authorization`: Authorization is a security scheme, not a parameter)."""
    paths = document["paths"]

    def link(path: str, method: str, description: str, parameters: dict[str, str],
             **body: str) -> dict[str, Any]:
        found: dict[str, Any] = {"operationId": paths[path][method]["operationId"],
                                 "description": description, "parameters": parameters}
        if body:
            # The body as given: schemathesis would otherwise merge generated fields into
            # the move, and a legal move with an extra field is no longer legal.
            found["requestBody"] = body
            found["x-schemathesis"] = {"merge_body": False}
        return found

    created = {}
    for seat in range(MAX_SEATS):
        as_seat = {"path.game_id": "$response.body#/id",
                   "header.Authorization": f"Bearer {{$response.body#/seats/{seat}/token}}"}
        for name, path in (("Read", GAME), ("LegalMoves", f"{GAME}/legal-moves"),
                           ("History", f"{GAME}/history")):
            created[f"{name}AsSeat{seat}"] = link(path, "get", f"as seat {seat}", as_seat)
    paths[GAMES]["post"]["responses"]["201"]["links"] = created
    joined = {"path.game_id": "$request.path.game_id",
              "header.Authorization": "Bearer {$response.body#/token}"}
    paths[f"{GAME}/join"]["post"]["responses"]["201"]["links"] = {
        f"{name}AsJoinedSeat": link(path, "get", "as the seat just taken", joined)
        for name, path in (("Read", GAME), ("LegalMoves", f"{GAME}/legal-moves"))}
    same_game = {"path.game_id": "$request.path.game_id"}
    play_first = link(f"{GAME}/moves", "post", "the seat plays its first legal move (with"
                      " the same token)", same_game, move="$response.body#/legal_moves/0",
                      expected_version="$response.body#/version")
    for path in (GAME, f"{GAME}/legal-moves"):
        paths[path]["get"]["responses"]["200"]["links"] = {"PlayFirstLegalMove": play_first}
    paths[f"{GAME}/moves"]["post"]["responses"]["200"]["links"] = {
        "PlayNextLegalMove": play_first,
        "LegalMovesAfter": link(f"{GAME}/legal-moves", "get", "the seat's moves now (with"
                                " the same token)", same_game),
        "SuggestNext": link(f"{GAME}/suggest", "post", "the AI's advice to the seat (with"
                            " the same token)", same_game)}


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
            self._rendered = msgspec.json.encode(contract(openapi_schema))
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
