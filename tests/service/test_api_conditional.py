"""Conditional reads: every game read has an ETag naming its version and viewer, and a
client that sends it back in If-None-Match gets 304 with no body until either changes."""

import pytest

from tests.service.play import auth, create, tokens_of

READS = ["", "/legal-moves", "/history"]


@pytest.fixture
def game(client):
    created = create(client, "cup-the-crab", 3, seed=11)
    return f"/v1/games/{created['id']}", tokens_of(created)


def play_one_move(client, path, token):
    move = client.get(path, headers=auth(token)).json()["legal_moves"][0]
    assert client.post(f"{path}/moves", json={"move": move},
                       headers=auth(token)).status_code == 200


@pytest.mark.parametrize("read", READS)
def test_a_read_carries_an_etag_that_shared_caches_may_not_reuse(client, game, read):
    path, tokens = game
    response = client.get(path + read, headers=auth(tokens[0]))
    assert response.status_code == 200
    assert response.headers["etag"] == '"0.0"'
    assert response.headers["cache-control"] == "private, no-cache"
    assert response.headers["vary"] == "Authorization"


@pytest.mark.parametrize("read", READS)
def test_if_none_match_with_the_current_etag_is_304_with_no_body(client, game, read):
    path, tokens = game
    tag = client.get(path + read, headers=auth(tokens[1])).headers["etag"]
    response = client.get(path + read, headers={**auth(tokens[1]), "If-None-Match": tag})
    assert response.status_code == 304
    assert response.content == b""
    assert response.headers["etag"] == tag
    assert "content-type" not in response.headers


@pytest.mark.parametrize("header", ['"x", "0.s"', 'W/"0.s"', "*"])
def test_if_none_match_accepts_lists_weak_tags_and_any(client, game, header):
    path, _ = game
    assert client.get(path, headers={"If-None-Match": header}).status_code == 304


@pytest.mark.parametrize("read", READS)
def test_a_move_gives_every_viewer_a_new_etag_and_the_old_one_a_full_body(client, game, read):
    path, tokens = game
    viewers = [auth(tokens[0]), auth(tokens[2]), {}]
    old = [client.get(path + read, headers=headers).headers["etag"] for headers in viewers]
    play_one_move(client, path, tokens[0])
    for headers, tag in zip(viewers, old):
        response = client.get(path + read, headers={**headers, "If-None-Match": tag})
        assert response.status_code == 200
        assert response.headers["etag"] != tag
        assert response.json()["version"] == 1
        assert response.headers["etag"].startswith('"1.')


@pytest.mark.parametrize("read", READS)
def test_each_seat_and_the_spectator_have_their_own_etag(client, game, read):
    path, tokens = game
    viewers = [auth(token) for token in tokens.values()] + [{}]
    tags = [client.get(path + read, headers=headers).headers["etag"] for headers in viewers]
    assert tags == ['"0.0"', '"0.1"', '"0.2"', '"0.s"']
    # Another viewer's tag never gets a 304: seat 1 is not told seat 0's view is current.
    for headers in viewers:
        mine = client.get(path + read, headers=headers).headers["etag"]
        for tag in tags:
            status = client.get(path + read, headers={**headers, "If-None-Match": tag})
            assert status.status_code == (304 if tag == mine else 200)


def test_a_304_still_needs_a_token_that_opens_a_seat(client, game):
    path, _ = game
    response = client.get(path, headers={**auth("forged"), "If-None-Match": '"0.0"'})
    assert response.status_code == 401


def test_cvp_reads_are_conditional_too(client):
    created = create(client, "crabe-vs-poulpe", 2, seed=3)
    path, token = f"/v1/games/{created['id']}", tokens_of(created)[1]
    tag = client.get(path, headers=auth(token)).headers["etag"]
    assert tag == '"0.1"'
    assert client.get(path, headers={**auth(token), "If-None-Match": tag}).status_code == 304
