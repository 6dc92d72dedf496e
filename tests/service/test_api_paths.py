"""Every path anyone can send gets an answer a client can act on, and HEAD is a GET's
headers: RFC 9110's HEAD, no 405, and never a 500 for a path no file can have."""

import pytest

from tests.service.play import auth, create


@pytest.mark.parametrize("path", ["/play/index.html%00.js", "/schema/assets/%00",
                                  "/play/" + "a" * 5000, "/play/%FF%FE", "/play/js/",
                                  "/play/../pyproject.toml", "/play/%2e%2e/setup.py"])
def test_a_path_no_file_has_is_404_whatever_it_holds(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("path", ["/play", "/play/index.html", "/play/style.css",
                                  "/play/js/api.js", "/schema", "/health"])
def test_head_of_a_page_or_asset_is_its_get_without_the_body(client, path):
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    for header in ("content-type", "content-length", "etag"):
        assert head.headers.get(header) == got.headers.get(header), header


def test_head_of_a_game_carries_its_etag_and_of_its_stream_ends_at_once(client):
    game = create(client, "cup-the-crab", 2)
    path = f"/v1/games/{game['id']}"
    token = auth(game["seats"][0]["token"])
    got, head = client.get(path, headers=token), client.head(path, headers=token)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["etag"] == got.headers["etag"]
    stream = client.head(f"{path}/events", headers=token, timeout=5)
    assert stream.status_code == 200 and stream.content == b""
    assert stream.headers["content-type"].startswith("text/event-stream")


def test_head_where_no_get_is_served_is_405(client):
    game = create(client, "cup-the-crab", 2)
    response = client.head(f"/v1/games/{game['id']}/moves")
    assert response.status_code == 405
