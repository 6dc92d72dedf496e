"""CORS: browsers on the origins CORS_ORIGINS names may call the API and read its ETag;
every other origin, and every origin when CORS_ORIGINS is unset (the default), gets no
CORS header at all, so browsers keep the API to its own origin."""

from collections.abc import Iterator

import httpx
import pytest

from tests.service.conftest import STORES
from tests.service.play import auth, create, tokens_of
from tests.service.servers import server

APP = "https://app.example"
OTHER = "https://evil.example"
PREFLIGHT = {"Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type, if-none-match"}


@pytest.fixture(scope="module", params=sorted(STORES))
def open_to_app(request) -> Iterator[httpx.Client]:
    env = {**STORES[request.param], "ACCESS_LOG": "0",
           "CORS_ORIGINS": f"{APP}, http://localhost:5173"}
    with server(env) as running, httpx.Client(base_url=running.url, timeout=30) as client:
        yield client


def cors_headers(response: httpx.Response) -> dict[str, str]:
    return {name: value for name, value in response.headers.items()
            if name.startswith("access-control-")}


def test_an_allowed_origin_reads_a_game_and_may_see_its_etag(open_to_app):
    created = create(open_to_app, "cup-the-crab", 2)
    response = open_to_app.get(f"/v1/games/{created['id']}",
                               headers={**auth(tokens_of(created)[0]), "Origin": APP})
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == APP
    exposed = {name.strip().lower() for name in
               response.headers["access-control-expose-headers"].split(",")}
    assert {"etag", "retry-after", "location"} <= exposed


def test_an_allowed_origin_gets_its_preflight_with_the_headers_the_api_reads(open_to_app):
    response = open_to_app.options("/v1/games/some-id/moves",
                                   headers={**PREFLIGHT, "Origin": "http://localhost:5173"})
    assert response.status_code in (200, 204)
    assert response.headers["access-control-allow-origin"] == "http://localhost:5173"
    allowed = {name.strip().lower() for name in
               response.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "if-none-match", "idempotency-key"} <= allowed
    assert "POST" in response.headers["access-control-allow-methods"]


@pytest.mark.parametrize("method, path, status", [("GET", "/v1/games/no-such-game", 404),
                                                   ("GET", "/v2/nothing", 404),
                                                   ("DELETE", "/v1/games", 405)])
def test_errors_carry_the_cors_headers_too_so_browsers_can_read_the_problem(
        open_to_app, method, path, status):
    response = open_to_app.request(method, path, headers={"Origin": APP})
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.headers["access-control-allow-origin"] == APP


def test_cors_adds_origin_to_vary_and_keeps_authorization(open_to_app):
    created = create(open_to_app, "cup-the-crab", 2)
    response = open_to_app.get(f"/v1/games/{created['id']}", headers={"Origin": APP})
    varies = [value.strip() for value in response.headers["vary"].split(",")]
    assert sorted(varies) == ["Authorization", "Origin"]


def test_another_origin_gets_no_cors_header(open_to_app):
    created = create(open_to_app, "cup-the-crab", 2)
    response = open_to_app.get(f"/v1/games/{created['id']}", headers={"Origin": OTHER})
    assert response.status_code == 200
    assert cors_headers(response) == {}
    preflight = open_to_app.options("/v1/games", headers={**PREFLIGHT, "Origin": OTHER})
    assert preflight.status_code < 400 and cors_headers(preflight) == {}


@pytest.mark.parametrize("origin", [APP, OTHER, "null"])
def test_by_default_no_origin_gets_a_cors_header(client, origin):
    created = create(client, "cup-the-crab", 2)
    read = client.get(f"/v1/games/{created['id']}", headers={"Origin": origin})
    assert read.status_code == 200 and cors_headers(read) == {}
    preflight = client.options("/v1/games", headers={**PREFLIGHT, "Origin": origin})
    assert cors_headers(preflight) == {}
