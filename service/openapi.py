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
                         *bodies.EVENTS.values(),
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
         " (`no-such-seat`)",
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
    document.setdefault("components", {})["schemas"] = schemas
    for operations in document["paths"].values():
        for operation in operations.values():
            _drop_litestar_default_400(operation)
    return document


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
