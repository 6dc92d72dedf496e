"""Watching from the lobby, quick reactions and the rating chart over dates, in the browser:
a passer-by finds a live game on the start page and watches it, the players see them
counted, and nothing the spectator's page receives (reads and the whole event stream)
shows more than core's view for no seat; a player's reaction shows on the other pages as
a bubble, rests 5 s, and a muted page shows none; the profile's chart puts its dates
under the axis with no two labels overlapping. axe at 1280 and 390 px in English and
French on each of these screens. One server and one browser for the module."""

import json
import time

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.service.play import replay_in_core
from tests.web.browsing import open_page
from tests.web.test_accessibility import violations
from tests.web.test_after_game import PRESENCE_MS, plain, seated, violations_in
from tests.web.test_french import UNTRANSLATED

GAME, SEED = "crabe-vs-poulpe", 5
OPEN_SEAT = [{"type": "human", "name": "Ana"}, {"type": "open"}]
REST_SECONDS = 5.2  # a seat's one reaction per 5 s, and a margin
SIZES = [("en-GB", 1280), ("en-GB", 390), ("fr-FR", 1280), ("fr-FR", 390)]


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


def react_until_heard(sayer, phrase: str, *hearers) -> float:
    """The sayer's page says phrase until every hearer shows it (a page hears what is said
    once its stream is open, which its first drawing does not wait for); when it was said."""
    for _ in range(3):
        said = time.monotonic()
        sayer.locator(f"[data-key=react-{phrase}]").click()
        try:
            for page in hearers:
                page.wait_for_selector(f".seat .bubble[data-phrase={phrase}]", timeout=3000)
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
    assert ana.locator("[data-key=react-thanks]").is_disabled()  # resting 5 s
    bo.screenshot(path=shots / "reaction-bubble.png")
    ana.locator("[data-key=mute-reactions]").click()
    assert ana.locator("[data-key=mute-reactions]").get_attribute("aria-pressed") == "true"
    assert ana.locator(".bubble").count() == 0
    bo.locator("[data-key=react-oops]").click()
    bo.wait_for_selector(".seat .bubble[data-phrase=oops]")
    ana.wait_for_timeout(1500)
    assert ana.locator(".bubble").count() == 0  # muted: heard, not shown
    ana.reload()  # the setting is this browser's, kept
    ana.wait_for_selector(".table[data-version]")
    assert ana.locator("[data-key=mute-reactions]").get_attribute("aria-pressed") == "true"
    time.sleep(max(0.0, said + REST_SECONDS - time.monotonic()))  # Ana's rest is over
    ana.locator("[data-key=react-thanks]").click()
    bo.wait_for_selector(".seat .bubble[data-phrase=thanks]")
    for page in (ana, bo):
        assert page.errors == []


@pytest.mark.parametrize("locale,width", SIZES)
def test_the_watching_and_reacting_screens_pass_axe(web, browser, axe_source, shots, locale,
                                                    width):
    game_id, tokens = live_table(web)
    player = seated(browser, web, game_id, tokens[0], GAME, locale=locale, width=width)
    other = seated(browser, web, game_id, tokens[1], GAME)
    react_until_heard(other, "hurry-up", player)
    found = {"table": violations(player, axe_source)}
    assert player.evaluate("document.documentElement.scrollWidth") <= width
    player.screenshot(path=shots / f"reactions-{locale[:2]}-{width}.png", full_page=True)
    visitor = open_page(browser, f"{web.url}/play", locale=locale, width=width)
    visitor.locator(f".live li[data-game='{game_id}']").wait_for()
    found["live list"] = violations_in(visitor, axe_source, ".live")
    assert visitor.evaluate("document.documentElement.scrollWidth") <= width
    visitor.locator(".live").screenshot(path=shots / f"live-games-{locale[:2]}-{width}.png")
    visitor.locator(f"[data-key='watch-{game_id}']").click()
    visitor.wait_for_selector(".table[data-version] [data-key=mute-reactions]")
    found["spectator"] = violations(visitor, axe_source)
    bad = {screen: v for screen, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
    if locale == "fr-FR":
        assert player.evaluate(UNTRANSLATED) == [] and visitor.evaluate(UNTRANSLATED) == []
        assert plain(player.locator(".bubble").inner_text()) == "On accélère\u202f?"
    for page in (player, other, visitor):
        assert page.errors == []
        page.context.close()


# The chart drawn from a history of rated games spread over weeks (and one over a single
# day), put in a profile's place; every pair of its labels is measured as drawn.
DRAW_CHART = """async ([points, fromStart]) => {
  const { ratingChart } = await import("/play/js/chart.js");
  const { NEWCOMER } = await import("/play/js/pools.js");
  const landmarks = [{ label: "L3", value: 20 }, { label: "L5", value: 21.2 }];
  const article = document.createElement("article");
  article.className = "pool test-chart";
  article.append(ratingChart(fromStart ? [NEWCOMER, ...points] : points, landmarks, fromStart));
  document.querySelector(".start").prepend(article);
  const boxes = [...article.querySelectorAll("text")].map((node) => {
    const r = node.getBoundingClientRect();
    return { text: node.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
  return boxes;
}"""


def history(days: list[float]) -> list[dict]:
    """Rated games ended on these days (of December 2026), rating rising then falling."""
    points = []
    for index, day in enumerate(days):
        mu = 25 + index * 0.8 - (index > len(days) / 2) * index * 0.7
        points.append({"mu": mu, "sigma": max(8.3 - index * 0.6, 2.5),
                       "ended_at": f"2026-12-{int(day):02d}T{int(day % 1 * 24):02d}:30:00+00:00"})
    return points


@pytest.mark.parametrize("locale,width", SIZES)
def test_the_profile_chart_runs_over_dates_with_no_label_over_another(web, browser, axe_source,
                                                                     shots, locale, width):
    page = open_page(browser, f"{web.url}/play#/profile", locale=locale, width=width)
    page.wait_for_selector(".start")
    over_weeks = history([1, 2, 2.5, 5, 9, 9.5, 10, 16, 22, 23, 28])
    in_a_day = history([3.1, 3.2, 3.4, 3.5, 3.7])
    for name, points, from_start in (("weeks", over_weeks, True), ("day", in_a_day, False)):
        boxes = page.evaluate(DRAW_CHART, [points, from_start])
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = a["right"] <= b["left"] or b["right"] <= a["left"] or \
                    a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
                assert apart, f"{a['text']!r} overlaps {b['text']!r}"
        chart = page.locator(".test-chart .rating-chart").first
        texts = chart.locator("text.date").all_text_contents()
        assert len(texts) >= 2
        assert any(("Dec" if locale == "en-GB" else "déc") in text for text in texts), texts
        chart.screenshot(path=shots / f"chart-dates-{name}-{locale[:2]}-{width}.png")
        assert violations_in(page, axe_source, ".test-chart") == []
        page.evaluate("() => document.querySelector('.test-chart').remove()")
    if locale == "fr-FR":
        assert page.evaluate(UNTRANSLATED) == []
    assert page.errors == []
    page.context.close()
