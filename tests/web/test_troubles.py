"""What a player sees when things go wrong: the network cut under an open table or under
a review being computed, a game the server has forgotten. Every failure ends in a state the player understands, and the
board always agrees with the log."""

import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from tests.service.archives import drained
from tests.service.play import create, play_to_end
from tests.processes import Process
from tests.service.servers import (ROOT, SHARED_REDIS, UNLIMITED, free_port, server,
                                   suite_database)
from tests.web.browsing import CVP_CHOICES, open_page, create_game, play_one_turn, token_of, version, wait_for_turn


def log_versions(page) -> list[int]:
    return [int(text.lstrip("#")) for text in page.locator(".log li .v").all_inner_texts()]


@contextmanager
def replica(port: int, **settings: str) -> Iterator[Process]:
    """`python -m service` on this port, on the suite's Redis (so the games outlive it),
    killed (SIGKILL: gone at once, its streams cut) at the block's end."""
    env = {**os.environ, **UNLIMITED, "REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "0",
           "DATABASE_URL": suite_database().url, **settings}
    with Process(f"`python -m service` on port {port}",
                 [sys.executable, "-m", "service", "--port", str(port)], env=env,
                 cwd=ROOT) as process:
        process.wait_ready(lambda: httpx.get(f"http://127.0.0.1:{port}/health",
                                             timeout=2).status_code == 200,
                           "answering GET /health")
        try:
            yield process
        finally:
            process.stop(kill=True)


def test_a_table_whose_server_goes_away_says_so_and_catches_up_when_it_is_back(browser):
    port = free_port()
    with server({"REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "0"}) as other:
        with replica(port):
            url = f"http://127.0.0.1:{port}"
            created = httpx.post(f"{url}/v1/games", json={
                "game": "crabe-vs-poulpe", "players": 2, "options": {"first_player": 1},
                "seats": [{"type": "human", "name": "Ana"}, {"type": "open"}]}).json()
            game_id, host = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
            guest = open_page(browser, f"{url}/play#/join/{game_id}/1")
            guest.locator("[data-key=join]").click()
            assert wait_for_turn(guest)
            play_one_turn(guest)  # now the host is to move
        # The guest's server is gone (its streams cut, its port refusing); the host plays
        # on through the other replica.
        trouble = guest.locator(".prompt .error")
        guest.wait_for_function("() => document.querySelector('.prompt .error').textContent !== ''")
        assert trouble.inner_text() == "The server cannot be reached, retrying…"
        body = httpx.get(f"{other.url}/v1/games/{game_id}", headers=host).json()
        moved = httpx.post(f"{other.url}/v1/games/{game_id}/moves", headers=host,
                           json={"move": body["legal_moves"][0]})
        assert moved.status_code == 200
        stale = version(guest)
        assert stale < moved.json()["version"]
        assert all(v <= stale for v in log_versions(guest))  # the log never runs ahead of the board
        with replica(port):
            current = moved.json()["version"]
            guest.wait_for_function(
                f"() => Number(document.querySelector('.table').dataset.version) >= {current}", timeout=30_000)
            guest.wait_for_function("() => document.querySelector('.prompt .error').textContent === ''")
            assert max(log_versions(guest)) == version(guest)  # board and log agree again
            seen = httpx.get(f"{url}/v1/games/{game_id}",
                             headers={"Authorization": f"Bearer {token_of(guest, game_id)}"}).json()
            assert seen["version"] == version(guest)
            assert bool(seen["legal_moves"]) == bool(guest.locator(".status.turn").count())


def test_a_game_the_server_forgot_ends_the_table_in_words_with_nothing_left_to_click(browser):
    with server({"ACCESS_LOG": "0", "GAME_TTL_SECONDS": "2"}) as short_lived:
        page = open_page(browser, f"{short_lived.url}/play")
        create_game(page, "crabe-vs-poulpe")
        assert wait_for_turn(page)
        time.sleep(3)  # idle longer than GAME_TTL_SECONDS: the server deletes the game
        asked = []
        page.on("request", lambda request: "/v1/games/" in request.url and asked.append(request.url))
        next(page.locator(s) for s in CVP_CHOICES if page.locator(s).count()).first.click()
        alert = page.locator("p.gone")
        alert.wait_for()
        assert alert.inner_text().startswith("This game is no longer on the server")
        assert page.locator(".status").inner_text() == "Game unavailable"
        assert page.locator("button.card.choosable, .prompt button.move, [data-key=hint]").count() == 0
        asked.clear()
        page.wait_for_timeout(3000)
        assert asked == []  # nothing polls a game that is gone
        assert "Your turn" not in page.title()


def test_a_review_whose_server_goes_away_while_it_is_computed_says_so_and_shows_it_when_back(browser, shots):
    """The review goes on on the server once asked: the page keeps its progress in view,
    says the server cannot be reached, and asks again until it is back."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with replica(port, REVIEW_LEASE_SECONDS="2"):  # a dead replica's review moves on in 2 s
        with httpx.Client(base_url=url, timeout=30) as client:
            created = create(client, "cup-the-crab", 4, seed=5)
            play_to_end(client, created, seed=5)
            drained(url)
            for seat in (1, 2, 3):  # a replica reviews one at a time: the page's waits its turn
                assert client.post(f"/v1/games/{created['id']}/reviews",
                                   json={"seat": seat}).status_code == 202
        page = open_page(browser, f"{url}/play#/review/{created['id']}/0")
        page.wait_for_selector(".review-progress")
    # The replica is gone under the review being computed.
    trouble = page.locator(".review-progress .error")
    trouble.wait_for()
    assert trouble.inner_text() == "The server cannot be reached, retrying…"
    assert page.locator(".start").count() == 0  # not the page of a review that cannot open
    page.screenshot(path=shots / "review-trouble.png")
    with replica(port, REVIEW_LEASE_SECONDS="2"):
        page.wait_for_selector(".review[data-status=done]", timeout=60_000)
        shown = page.locator(".review-list button.decision").count()
        expected = httpx.get(f"{url}/v1/games/{created['id']}/reviews/0").json()
    assert shown == len(expected["decisions"]) > 0
    assert page.locator(".error").all_inner_texts() in ([], [""])
    # The browser's own console lines for the requests the dead server refused or cut
    # (reset, closed, an empty response, or a body cut short when it went away while
    # sending one); no script error.
    cut = r"CONNECTION_[A-Z_]+|EMPTY_RESPONSE|CONTENT_LENGTH_MISMATCH|INCOMPLETE_CHUNKED_ENCODING"
    assert all(re.fullmatch(rf"Failed to load resource: net::ERR_({cut})", error)
               for error in page.errors), page.errors
