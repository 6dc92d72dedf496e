"""The after-game in the browser, played by clicks in two browsers: resigning (asked twice),
the rematch offered, declined, offered again and accepted, who is still at the table, the
spectators counted for the players. Axe on these screens is in
test_after_game_accessibility.py, "Your games" in test_your_games.py (files of their own, so
that two pytest-xdist workers share the browser tests' minutes)."""

import json

import httpx

from tests.web.browsing import game_id_of, open_page
from tests.web.test_accessibility import AXE_RUN, violations

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
    for page in (ana, bo):  # the prompt no longer says whose turn it was
        assert page.locator("p.say").inner_text() == "The game is over."
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
