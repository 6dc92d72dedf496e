"""Watching from the lobby, quick reactions and the rating chart over dates, in the browser:
a passer-by finds a live game on the start page and watches it, the players see them
counted, and nothing the spectator's page receives (reads and the whole event stream)
shows more than core's view for no seat; a player's reaction shows on the other pages as
a bubble, rests 5 s, and a muted page shows none. (axe on these screens:
test_watch_and_react_accessibility.py; the profile's chart over dates:
test_rating_chart_dates.py.) One server and one browser for the module."""

import json
import time

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.service.play import replay_in_core
from tests.web.browsing import open_page
from tests.web.test_after_game import PRESENCE_MS, plain, seated

GAME, SEED = "crabe-vs-poulpe", 5
OPEN_SEAT = [{"type": "human", "name": "Ana"}, {"type": "open"}]
REST_SECONDS = 5.2  # a seat's one reaction per 5 s, and a margin
SIZES = [("en-GB", 1280), ("en-GB", 390), ("fr-FR", 1280), ("fr-FR", 390)]  # axe's screens
AFTER_GAME_HEARD_MS = 8000  # the after-game page beats every 5 s: heard by the next beat


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def live_table(web) -> tuple[str, list[str]]:
    """A listed game between two people, seeded, its second seat taken from the lobby."""
    created = httpx.post(f"{web.url}/v1/games", json={
        "game": GAME, "players": 2, "seats": OPEN_SEAT, "listed": True, "seed": SEED}).json()
    joined = httpx.post(f"{web.url}/v1/games/{created['id']}/join", json={"name": "Bo"}).json()
    return created["id"], [created["seats"][0]["token"], joined["token"]]


def play_first_moves(web, game_id: str, tokens: list[str], count: int) -> list[tuple]:
    """Plays count moves (each the first legal one) over the API: (version after, seat, move)."""
    played = []
    for _ in range(count):
        seat = httpx.get(f"{web.url}/v1/games/{game_id}").json()["to_move"][0]
        mine = httpx.get(f"{web.url}/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        move = mine["legal_moves"][0]
        answer = httpx.post(f"{web.url}/v1/games/{game_id}/moves", json={"move": move},
                            headers=auth(tokens[seat])).json()
        played.append((answer["version"], seat, move))
    return played


def open_reactions(page) -> None:
    """Opens the phrases from the bar's "React" button, as a player does (if not open)."""
    toggle = page.locator("[data-key=react-menu]")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.locator(".react-panel").wait_for()


def say(page, phrase: str) -> None:
    open_reactions(page)
    page.locator(f"[data-key=react-{phrase}]").click()


def react_until_heard(sayer, phrase: str, *hearers, timeout_ms: int = 3000) -> float:
    """The sayer's page says phrase until every hearer shows it (a page hears what is said
    once its stream is open, which its first drawing does not wait for); when it was said."""
    for _ in range(3):
        said = time.monotonic()
        say(sayer, phrase)
        try:
            for page in hearers:
                page.wait_for_selector(f".seat .bubble[data-phrase={phrase}]",
                                       timeout=timeout_ms)
            return said
        except PlaywrightTimeout:
            time.sleep(max(0.0, said + REST_SECONDS - time.monotonic()))  # the seat's rest
    raise AssertionError(f"{phrase} was never heard")


def server_events(text: str) -> list[tuple[str, dict]]:
    """An event stream's body as (event, data) pairs."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if line and not line.startswith(":"))
        if "data" in fields:
            found.append((fields.get("event", "message"), json.loads(fields["data"])))
    return found


def test_a_passer_by_watches_a_live_game_and_receives_only_what_no_seat_may_know(web, browser,
                                                                                 shots):
    game_id, tokens = live_table(web)
    ana, bo = (seated(browser, web, game_id, token, GAME) for token in tokens)
    visitor = open_page(browser, f"{web.url}/play")
    received: list = []
    visitor.on("response", lambda response: f"/v1/games/{game_id}" in response.url
               and received.append(response))
    watch = visitor.locator(f".live [data-key='watch-{game_id}']")
    line = visitor.locator(f".live li[data-game='{game_id}']")
    line.wait_for()
    assert "Ana" in line.inner_text() and "Bo" in line.inner_text()
    visitor.screenshot(path=shots / "live-games-start.png", full_page=True)
    watch.click()
    visitor.wait_for_selector(".table[data-version] .spectator")  # no hand: a spectator's view
    assert visitor.locator("[data-key^=react-]").count() == 0  # a spectator says nothing
    for player in (ana, bo):  # the players see the spectator counted, within a beat
        player.wait_for_selector("[data-key=spectators]:has-text('1 spectator')",
                                 timeout=PRESENCE_MS)
    passer_by = open_page(browser, f"{web.url}/play")  # the list says one watches now
    passer_by.wait_for_selector(f".live [data-key='watching-{game_id}']:has-text('1 spectator')",
                                timeout=PRESENCE_MS)
    passer_by.locator(".live").screenshot(path=shots / "live-games-watched.png")
    passer_by.context.close()
    played = play_first_moves(web, game_id, tokens, 4)
    visitor.wait_for_selector(f".table[data-version='{played[-1][0]}']")
    react_until_heard(ana, "good-luck", visitor)
    visitor.screenshot(path=shots / "spectator-table.png")
    httpx.post(f"{web.url}/v1/games/{game_id}/resign", headers=auth(tokens[1]))
    visitor.wait_for_selector(".table[data-status=over]")
    visitor.goto(f"{web.url}/play#/")  # leaves: every response it had is complete
    visitor.wait_for_selector("form.setup")
    # Every game body the spectator's page read or was streamed is core's view for no
    # seat at that version (so no hand, no deck order), and no response holds a token.
    views, reactions = [], []
    for response in received:
        text = response.text()
        assert not any(token in text for token in tokens)
        if "text/event-stream" in (response.headers.get("content-type") or ""):
            for event, data in server_events(text):
                if event == "reaction":
                    reactions.append(data)
                elif event == "game":
                    views.append(data["game"])
        elif response.request.method == "GET" and response.url.split("?")[0].endswith(game_id):
            views.append(response.json())
    final = httpx.get(f"{web.url}/v1/games/{game_id}").json()["version"]
    assert {body["version"] for body in views} >= {played[-1][0], final}
    for body in views:
        assert body["you"] is None and body["legal_moves"] == []
        moves = [(seat, move) for version, seat, move in played if version <= body["version"]]
        core_view = replay_in_core(GAME, 2, SEED, moves).view(None)
        assert body["view"] == json.loads(json.dumps(core_view))
    assert [(r["seat"], r["phrase"]) for r in reactions] == [(0, "good-luck")]
    for page in (ana, bo, visitor):
        assert page.errors == []


def test_a_reaction_shows_on_the_other_pages_and_a_muted_page_shows_none(web, browser, shots):
    game_id, tokens = live_table(web)
    ana, bo = (seated(browser, web, game_id, token, GAME) for token in tokens)
    said = react_until_heard(ana, "well-played", bo, ana)  # its own words too
    assert bo.locator(".seat").nth(0).locator(".bubble").inner_text() == "Well played"
    assert ana.locator(".react-panel").count() == 0  # said: the phrases close
    assert ana.evaluate("document.activeElement.dataset.key") == "react-menu"
    open_reactions(ana)
    assert ana.locator("[data-key=react-thanks]").is_disabled()  # resting 5 s
    bo.screenshot(path=shots / "reaction-bubble.png")
    ana.locator("[data-key=mute-reactions]").click()
    assert ana.locator("[data-key=mute-reactions]").get_attribute("aria-pressed") == "true"
    assert ana.locator(".bubble").count() == 0
    ana.keyboard.press("Escape")  # closes the phrases, the focus back on "React"
    assert ana.locator(".react-panel").count() == 0
    assert ana.evaluate("document.activeElement.dataset.key") == "react-menu"
    say(bo, "oops")
    bo.wait_for_selector(".seat .bubble[data-phrase=oops]")
    ana.wait_for_timeout(1500)
    assert ana.locator(".bubble").count() == 0  # muted: heard, not shown
    ana.reload()  # the setting is this browser's, kept
    ana.wait_for_selector(".table[data-version]")
    open_reactions(ana)
    assert ana.locator("[data-key=mute-reactions]").get_attribute("aria-pressed") == "true"
    time.sleep(max(0.0, said + REST_SECONDS - time.monotonic()))  # Ana's rest is over
    say(ana, "thanks")
    bo.wait_for_selector(".seat .bubble[data-phrase=thanks]")
    for page in (ana, bo):
        assert page.errors == []


def test_the_phrases_open_in_view_on_a_laptop_and_nothing_of_the_table_moves(web, browser,
                                                                             shots):
    """Below the hand they were under the fold at 1280x900: "React" in the bar opens them
    over the table, in view without scrolling, in both games, the table's rows unmoved."""
    for game in ("crabe-vs-poulpe", "cup-the-crab"):
        created = httpx.post(f"{web.url}/v1/games", json={
            "game": game, "players": 2, "seats": OPEN_SEAT, "listed": True,
            "seed": SEED}).json()
        httpx.post(f"{web.url}/v1/games/{created['id']}/join", json={"name": "Bo"})
        for locale, width in SIZES:
            page = seated(browser, web, created["id"], created["seats"][0]["token"], game,
                          locale=locale, width=width)
            page.wait_for_selector(".log li")  # the history read: the table is all drawn
            rows = ".bar, .seats, .board, .prompt, .hand, .log"
            closed = page.eval_on_selector_all(rows, BOXES)
            open_reactions(page)
            assert page.eval_on_selector_all(rows, BOXES) == closed  # drawn over the table
            assert page.evaluate("scrollY") == 0
            viewport = page.viewport_size
            for button in page.locator(".react-panel button").all():
                box = button.bounding_box()
                assert box is not None and button.is_visible()
                assert 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], box
                assert 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], box
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=shots / f"react-menu-{game}-{locale[:2]}-{width}.png")
            assert page.errors == []
            page.context.close()


# Each element's box, rounded: what a layout shift would change.
BOXES = "nodes => nodes.map(n => { const b = n.getBoundingClientRect();" \
        " return [n.className, Math.round(b.x), Math.round(b.y), Math.round(b.width)," \
        " Math.round(b.height)]; })"


def test_after_the_game_good_game_shows_on_the_other_players_page(web, browser, shots):
    """The streams of a finished game have ended: what is said at the after-game table
    comes with the presence beats, to every page still there, in its reader's language,
    and not to a page that muted reactions."""
    game_id, tokens = live_table(web)
    ana = seated(browser, web, game_id, tokens[0], GAME)
    bo = seated(browser, web, game_id, tokens[1], GAME, locale="fr-FR")
    httpx.post(f"{web.url}/v1/games/{game_id}/resign", headers=auth(tokens[1]))
    for page, other in ((ana, 1), (bo, 0)):
        page.wait_for_selector(".end .ranking")
        page.wait_for_selector(f".presence li.here[data-seat='{other}']", timeout=PRESENCE_MS)
    react_until_heard(ana, "good-game", ana, bo, timeout_ms=AFTER_GAME_HEARD_MS)
    assert plain(bo.locator(".seat").nth(0).locator(".bubble").inner_text()) == "Belle partie"
    assert ana.locator(".seat").nth(0).locator(".bubble").inner_text() == "Good game"
    bo.screenshot(path=shots / "after-game-reaction-fr-1200.png")
    open_reactions(ana)
    ana.locator("[data-key=mute-reactions]").click()
    ana.keyboard.press("Escape")
    say(bo, "thanks")
    bo.wait_for_selector(".seat .bubble[data-phrase=thanks]")
    ana.wait_for_timeout(AFTER_GAME_HEARD_MS)  # a beat has come and gone
    assert ana.locator(".bubble").count() == 0  # muted: heard, not shown
    bo.goto(f"{web.url}/play#/")  # Bo leaves: Ana is alone, and is offered no word to say
    ana.wait_for_selector("[data-key=react-menu]", state="detached", timeout=PRESENCE_MS)
    for page in (ana, bo):
        assert page.errors == []


def test_no_phrase_is_offered_to_a_seat_only_robots_would_hear(web, browser):
    created = httpx.post(f"{web.url}/v1/games", json={
        "game": GAME, "players": 2, "seats": [{"type": "human", "name": "Ana"},
                                              {"type": "ai", "level": 1}]}).json()
    page = seated(browser, web, created["id"], created["seats"][0]["token"], GAME)
    page.wait_for_selector(".bar .status")  # drawn: in play, the seats alone decide
    assert page.locator("[data-key=react-menu], [data-key=mute-reactions]").count() == 0
    assert page.errors == []
    page.context.close()
