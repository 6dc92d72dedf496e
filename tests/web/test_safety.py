"""/play's security headers, and the seat token kept out of every URL the page asks for
(a URL shows in the browser's console errors and in proxies' logs)."""

import httpx
import pytest

from tests.web.browsing import create_game, game_id_of, open_page, play_one_turn, token_of, wait_for_turn


@pytest.mark.parametrize("path", ["/play", "/play/index.html", "/play/js/app.js", "/play/style.css"])
def test_the_client_is_served_with_a_content_security_policy_and_the_usual_headers(web, path):
    headers = httpx.get(f"{web.url}{path}").headers
    policy = headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "connect-src 'self'" in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"


def test_a_replays_address_leads_to_the_clients_replay(web):
    answer = httpx.get(f"{web.url}/play/replay/abc-DEF_1")
    assert answer.status_code == 302 and answer.headers["location"] == "/play#/replay/abc-DEF_1"


def test_the_seat_token_is_in_no_url_the_page_asks_for(web, browser):
    page = open_page(browser, f"{web.url}/play")
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    create_game(page, "crabe-vs-poulpe")
    for _ in range(3):
        if wait_for_turn(page):
            play_one_turn(page)
    token = token_of(page, game_id_of(page))
    assert any("/events" in url for url in asked)  # the table follows the event stream
    assert not [url for url in asked if token in url]
    assert page.errors == []  # nothing the policy refused either
