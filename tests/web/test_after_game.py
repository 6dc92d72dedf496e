"""The after-game in the browser, played by clicks in two browsers: resigning (asked twice),
the rematch offered, declined, offered again and accepted, who is still at the table, the
spectators counted for the players; and axe on these screens at both widths in both
languages."""

import json

import httpx
import pytest

from tests.service.archives import drained
from tests.web.browsing import create_game, game_id_of, open_page
from tests.web.test_accessibility import AXE_RUN, violations
from tests.web.test_french import UNTRANSLATED

PEOPLE = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]
PRESENCE_MS = 30_000  # a page beats every 10 s: what another page sees follows within that


def violations_in(page, axe_source: str, selector: str) -> list[dict]:
    """axe's serious and critical findings inside one part of the page."""
    violations(page, axe_source)  # loads axe into the page
    return page.evaluate(AXE_RUN.replace("axe.run(document,", f"axe.run({json.dumps(selector)},"))


def plain(text: str) -> str:
    """Text without the marks that isolate names (FSI, PDI)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def seated(browser, web, game_id: str, token: str, game: str, **options):
    """A browser holding this seat's token (as the one that created or joined it would),
    at the game's table."""
    page = open_page(browser, f"{web.url}/play", **options)
    page.evaluate(f"""() => localStorage.setItem('crab-table.games', JSON.stringify(
        {{'{game_id}': {{token: '{token}', game: '{game}', at: Date.now()}}}}))""")
    page.goto(f"{web.url}/play#/g/{game_id}")
    page.wait_for_selector(".table[data-version]")
    return page


def two_people(web, browser, game="crabe-vs-poulpe", **options):
    created = httpx.post(f"{web.url}/v1/games", json={"game": game, "players": 2,
                                                       "seats": PEOPLE}).json()
    tokens = [seat["token"] for seat in created["seats"]]
    return created["id"], [seated(browser, web, created["id"], token, game, **options)
                           for token in tokens]


def test_a_player_resigns_after_confirming_and_both_see_who_won(web, browser, shots):
    game_id, (ana, bo) = two_people(web, browser)
    bo.locator("[data-key=resign]").click()
    assert bo.locator(".table").get_attribute("data-status") == "active"  # asked, not done
    bo.locator("[data-key=resign-no]").click()
    assert bo.locator("[data-key=resign-yes]").count() == 0
    bo.locator("[data-key=resign]").click()
    bo.screenshot(path=shots / "resign-confirm.png")
    bo.locator("[data-key=resign-yes]").click()
    bo.wait_for_selector(".end .ranking")
    assert bo.locator(".end .headline").inner_text() == "You resigned"
    ana.wait_for_selector(".end .ranking")
    assert ana.locator(".end .headline").inner_text() == "You win!"
    assert "Bo resigned." in plain(ana.locator(".end").inner_text())
    assert "Bo resigned" in plain(ana.locator(".end .log").inner_text())
    assert ana.locator(".seat .badge.resigned").count() == 1
    ana.wait_for_selector(".presence li.here[data-seat='1']", timeout=PRESENCE_MS)
    ana.screenshot(path=shots / "resigned-end.png")
    bo.goto(f"{web.url}/play#/")  # Bo's page leaves the table, and says so
    ana.wait_for_selector(".presence li.gone[data-seat='1']:has-text('has left the table')",
                          timeout=PRESENCE_MS)
    for page in (ana, bo):
        assert page.errors == []


def test_a_rematch_is_offered_declined_offered_again_and_accepted_with_presence(web, browser,
                                                                              shots):
    game_id, (ana, bo) = two_people(web, browser)
    bo.locator("[data-key=resign]").click()
    bo.locator("[data-key=resign-yes]").click()
    for page in (ana, bo):
        page.wait_for_selector(".end .rematch")
    # Both pages beat: each sees the other at the table.
    ana.wait_for_selector(".presence li.here[data-seat='1']", timeout=PRESENCE_MS)
    ana.locator("[data-key=rematch]", has_text="Offer a rematch").click()
    ana.wait_for_selector(".rematch-say:has-text('waiting for')")
    bo.wait_for_selector(".rematch-say:has-text('offers a rematch.')", timeout=PRESENCE_MS)
    bo.screenshot(path=shots / "rematch-offered.png")
    bo.locator("[data-key=rematch-decline]").click()
    ana.wait_for_selector(".rematch-say:has-text('declined the rematch.')",
                          timeout=PRESENCE_MS)
    assert bo.locator(".rematch-say").inner_text() == "You declined the rematch."
    bo.locator("[data-key=rematch]", has_text="Offer a rematch").click()
    ana.locator("[data-key=rematch]", has_text="Accept the rematch").click(timeout=PRESENCE_MS)
    ana.wait_for_function(f"() => !location.hash.includes('{game_id}')")
    rematch = game_id_of(ana)
    bo.wait_for_function(f"() => location.hash.endsWith('{rematch}')", timeout=PRESENCE_MS)
    for page in (ana, bo):
        page.wait_for_selector(".table[data-status=active]")
    kinds = [e["kind"] for e in httpx.get(f"{web.url}/v1/games/{game_id}/history").json()[
        "entries"]]
    assert kinds[-5:] == ["resign", "rematch-offer", "rematch-decline", "rematch-offer",
                          "rematch"]
    for page in (ana, bo):
        assert page.errors == []


def test_the_players_see_how_many_spectators_watch(web, browser, shots):
    game_id, (ana, bo) = two_people(web, browser)
    watcher = open_page(browser, f"{web.url}/play#/g/{game_id}")
    watcher.wait_for_selector(".table[data-version]")
    assert watcher.locator("[data-key=resign]").count() == 0  # a spectator has no seat
    for page in (ana, bo):
        page.wait_for_selector("[data-key=spectators]:has-text('1 spectator')",
                               timeout=PRESENCE_MS)
    ana.screenshot(path=shots / "spectator-count.png")
    watcher.close()


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_after_game_screens_have_no_serious_accessibility_violation(web, browser, axe_source,
                                                                        shots, width, locale):
    game_id, (ana, bo) = two_people(web, browser, width=width, locale=locale)
    found = {}
    bo.locator("[data-key=resign]").click()
    found["resign confirmation"] = violations(bo, axe_source)
    bo.locator("[data-key=resign-yes]").click()
    ana.wait_for_selector(".end .rematch")
    ana.wait_for_selector(".presence li.here", timeout=PRESENCE_MS)
    ana.locator("[data-key=rematch]").click()
    bo.wait_for_selector("[data-key=rematch-decline]", timeout=PRESENCE_MS)
    found["rematch offered"] = violations(bo, axe_source)
    found["rematch waiting"] = violations(ana, axe_source)
    language = locale[:2]
    bo.screenshot(path=shots / f"rematch-offered-{language}-{width}.png", full_page=True)
    bad = {screen: v for screen, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
    if language == "fr":
        assert bo.evaluate(UNTRANSLATED) == []


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
