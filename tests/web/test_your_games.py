""""Your games" on the start page and the profile's games: each game's opponent, result
and rating moved, checked by axe at both widths in both languages."""

import json

import httpx
import pytest

from tests.service.archives import drained
from tests.web.browsing import create_game, game_id_of, open_page
from tests.web.test_accessibility import violations
from tests.web.test_after_game import plain, violations_in
from tests.web.test_french import UNTRANSLATED


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("width", [1280, 390])
def test_your_games_and_the_profile_tell_each_games_opponent_result_and_rating(
        web, browser, axe_source, shots, width, locale):
    page = open_page(browser, f"{web.url}/play", width=width, locale=locale)
    create_game(page, "crabe-vs-poulpe", name="Ana")  # against the AI, rated: bound to Ana
    game_id = game_id_of(page)
    page.locator("[data-key=resign]").click()
    page.locator("[data-key=resign-yes]").click()
    page.wait_for_selector(".end .ranking")
    assert httpx.get(f"{web.url}/v1/games/{game_id}").json()["rated"] is False  # no level
    # And a rated game of the same player against an AI level, lost by resigning too.
    key = page.evaluate("JSON.parse(localStorage.getItem('crab-table.player')).key")
    rated = httpx.post(f"{web.url}/v1/games", json={
        "game": "crabe-vs-poulpe", "players": 2,
        "seats": [{"type": "human", "player": key}, {"type": "ai", "level": 1}]}).json()
    httpx.post(f"{web.url}/v1/games/{rated['id']}/resign",
               headers={"Authorization": f"Bearer {rated['seats'][0]['token']}"})
    drained(web.url)
    found = {}
    for where, address in (("start", "#/"), ("profile", "#/profile")):
        page.goto(f"{web.url}/play{address}")
        line = page.locator(f".played-list li:has(a[data-game='{game_id}'])")
        line.wait_for()
        text = plain(line.inner_text())
        assert ("against" if locale == "en-GB" else "contre") in text
        assert ("2nd" if locale == "en-GB" else "2e place") in text
        assert ("resignation" if locale == "en-GB" else "abandon") in text
        assert line.locator(".moved").inner_text() == ("unrated" if locale == "en-GB"
                                                       else "non classée")
        rated_line = page.locator(f".played-list li:has(a[data-game='{rated['id']}'])")
        assert "→" in rated_line.locator(".moved").inner_text()  # the rating before, after
        assert "AI" in plain(rated_line.locator(".against").inner_text())
        # The profile's own parts are issue 34's other half (its logo link): here, its games.
        found[where] = violations(page, axe_source) if where == "start" else \
            violations_in(page, axe_source, ".recent")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=shots / f"your-games-{where}-{locale[:2]}-{width}.png",
                        full_page=True)
    bad = {screen: v for screen, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
    if locale == "fr-FR":
        assert page.evaluate(UNTRANSLATED) == []
    assert page.errors == []
