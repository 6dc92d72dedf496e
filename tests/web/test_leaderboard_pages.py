"""A leaderboard longer than a page, read in the browser: twenty lines, then "More players"
for the next ones, in the API's order, and the rule of entry as the API states it."""

import random
from collections.abc import Iterator

import httpx
import pytest

from tests.service.archives import drained
from tests.service.play import create, play_to_end
from tests.service.servers import Server, server
from tests.web.browsing import open_page

POOL = "crabe-vs-poulpe"
PAGE = 20      # the client's page (leaderboard.js asks for limit=20)
PLAYERS = 16   # with the five AI levels: more than a page
GAMES_EACH = 5  # the rated games that rank a player (the API's ranked_after)


def ranked_players(url: str) -> None:
    """PLAYERS bots, each with GAMES_EACH rated games against the others (random moves)."""
    with httpx.Client(base_url=url, timeout=10) as client:
        keys = [client.post("/v1/players", json={"name": f"Bot {n:02}", "kind": "bot"}).json()["key"]
                for n in range(PLAYERS)]
        rng = random.Random(7)
        for round_ in range(GAMES_EACH):
            order = rng.sample(keys, len(keys))
            for a, b in zip(order[::2], order[1::2]):
                created = create(client, POOL, 2, seats=[{"type": "human", "player": a},
                                                         {"type": "human", "player": b}])
                play_to_end(client, created, seed=round_)
    drained(url)


@pytest.fixture
def own() -> Iterator[Server]:
    """A service of this test's own: its sixteen ranked bots would push the AI levels off
    the first page of the leaderboard other browser tests read on the shared one."""
    with server({"ACCESS_LOG": "0"}) as running:
        yield running


def shown_lines(page) -> list[str]:
    return page.locator(".leaders tbody tr[data-player]").evaluate_all(
        "rows => rows.map((row) => row.dataset.player)")


def test_a_leaderboard_longer_than_a_page_is_read_a_page_at_a_time(own, browser):
    ranked_players(own.url)
    board = httpx.get(f"{own.url}/v1/leaderboards/{POOL}", params={"limit": 100}).json()
    everyone = [line["player"]["id"] for line in board["lines"]]
    assert len(everyone) > PAGE and board["ranked_after"] == GAMES_EACH
    page = open_page(browser, f"{own.url}/play#/leaderboards/{POOL}")
    page.wait_for_selector(".leaders tbody tr[data-player]")
    assert shown_lines(page) == everyone[:PAGE]
    assert f"after {GAMES_EACH} rated games" in page.locator(".board-list .note").inner_text()
    more = page.locator("[data-key=more-players]")
    more.focus()
    page.keyboard.press("Enter")  # by keyboard, as by a click
    page.wait_for_function(f"() => document.querySelectorAll('.leaders tbody tr[data-player]').length > {PAGE}")
    assert shown_lines(page) == everyone[:2 * PAGE]
    ranks = page.locator(".leaders tbody tr[data-player] td:first-child").all_inner_texts()
    assert ranks == [str(n) for n in range(1, len(ranks) + 1)]
    if len(everyone) <= 2 * PAGE:
        assert page.locator("[data-key=more-players]").count() == 0  # the last page: no more
    assert page.errors == []
