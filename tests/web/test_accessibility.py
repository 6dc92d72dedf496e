"""Every screen checked by axe-core (the npm package, tests/web/package.json) in the real
browser: no serious or critical violation. And what axe cannot see: cards and choices
operable by keyboard with the focus kept where the player is, and live regions that stay
in place so that what they announce is heard."""

import json

import httpx
import pytest

from tests.service.archives import drained
from tests.service.play import create, play_to_end
from tests.web.browsing import create_game, open_page, play_one_turn, wait_for_turn

AXE_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " :: " + n.failureSummary) }));
}"""


def violations(page, axe_source: str) -> list[dict]:
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(axe_source)  # evaluated by the browser's debugger: the page's policy allows no inline script
    return page.evaluate(AXE_RUN)


@pytest.mark.parametrize("width", [1280, 390])
def test_no_screen_has_a_serious_or_critical_accessibility_violation(web, browser, axe_source, width):
    found = {}
    page = open_page(browser, f"{web.url}/play", width=width)
    page.wait_for_selector("form.setup")
    found["start"] = violations(page, axe_source)
    create_game(page, "cup-the-crab", players=3)
    found["cup-the-crab selection"] = violations(page, axe_source)
    for _ in range(4):
        wait_for_turn(page)
        play_one_turn(page)
    wait_for_turn(page)
    found["cup-the-crab play"] = violations(page, axe_source)
    page.goto(f"{web.url}/play")
    create_game(page, "crabe-vs-poulpe", mode="asymmetrical")
    turns = 0
    while wait_for_turn(page):
        if turns in (2, 9):
            found[f"crabe-vs-poulpe turn {turns}"] = violations(page, axe_source)
        play_one_turn(page)
        turns += 1
    page.wait_for_selector(".end .ranking")
    found["end"] = violations(page, axe_source)
    page.locator("[data-key=replay]").click()
    page.wait_for_selector(".replay")
    page.keyboard.press("ArrowRight")
    found["replay"] = violations(page, axe_source)
    page.goto(f"{web.url}/play")
    create_game(page, "crabe-vs-poulpe", friends=(1,))
    page.wait_for_selector(".invite")
    found["invite"] = violations(page, axe_source)
    page.goto(page.locator(".invite input.link").input_value())
    page.wait_for_selector("[data-key=join]")
    found["join"] = violations(page, axe_source)
    page.goto(f"{web.url}/play#/g/no-such-game")
    page.wait_for_selector("p.error")
    found["a game that cannot be opened"] = violations(page, axe_source)
    bad = {screen: v for screen, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)


def test_a_choice_made_by_keyboard_keeps_the_focus_and_the_live_region_says_what_comes_next(web, browser):
    page = open_page(browser, f"{web.url}/play")
    create_game(page, "crabe-vs-poulpe")
    assert wait_for_turn(page)
    page.evaluate("() => { document.getElementById('announce').stayed = true; }")
    for _ in range(40):  # Tab to a card that can be played, as a keyboard player does
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('button.choosable, .prompt button.move')"):
            break
    name = page.evaluate("() => document.activeElement.textContent")
    assert name and page.evaluate("() => document.activeElement.getAttribute('aria-label')") is None
    before = int(page.locator(".table").get_attribute("data-version"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
    focused = page.evaluate("() => document.activeElement.closest('.table') !== null")
    assert focused  # not thrown back to the page's body
    assert page.evaluate("() => document.getElementById('announce').stayed") is True  # the same region
    wait_for_turn(page)
    assert page.locator("#announce").inner_text() == page.locator(".prompt .say").inner_text()
    assert page.errors == []


A_STACK_S_BADGES = """() => {
  const slot = document.createElement("div");
  slot.className = "slot stack";
  slot.innerHTML = '<div class="stack-head"><b>17</b> pts'
    + '<span class="badge bottle" title="bottled"><span class="word">bottled</span></span>'
    + '<span class="badge claim">claim</span></div>';
  document.querySelector(".stacks").append(slot);
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_stack_s_bottled_and_claim_badges_are_legible(web, browser, axe_source, width):
    """The badges a stack's head shows only in some games (a Bottle played, a Crab or an
    Octopus in hand), which the screens above meet by chance: laid beside the stacks of a
    real Cup the Crab table, with its style sheets, and checked by axe."""
    page = open_page(browser, f"{web.url}/play", width=width)
    page.wait_for_selector("form.setup")
    create_game(page, "cup-the-crab", players=3)
    page.wait_for_selector(".cup-board .stacks")
    page.evaluate(A_STACK_S_BADGES)
    assert page.locator(".badge.bottle").count() >= 1
    assert violations(page, axe_source) == []


def test_the_join_queue_profile_and_leaderboard_screens_pass_axe_in_both_languages_at_both_widths(
        web, browser, axe_source, shots):
    """The screens issue 34 touched, each at 1280 and 390 px in English and French: a join
    link (with its game's details, and to no game), the rated queue, a profile with a rated
    game and its chart, and the leaderboard; screenshots saved to be looked at."""
    with httpx.Client(base_url=web.url, timeout=30) as client:
        player = client.post("/v1/players", json={"name": "Léa", "kind": "human"}).json()
        rated = create(client, "crabe-vs-poulpe", 2, seats=[{"type": "human", "player": player["key"]},
                                                            {"type": "ai", "level": 1}])
        play_to_end(client, rated, seed=3)
        waiting = client.post("/v1/games", json={
            "game": "crabe-vs-poulpe", "players": 2, "options": {"mode": "asymmetrical"},
            "seats": [{"type": "human", "name": "Ana"}, {"type": "open"}], "turn_seconds": 120}).json()
    drained(web.url)
    screens = {"join": f"#/join/{waiting['id']}/1", "join-nothing": "#/join/no-such-game/1",
               "queue": "#/rated", "profile": "#/profile", "leaderboard": "#/leaderboards/crabe-vs-poulpe"}
    ready = {"join": "[data-key=details]", "join-nothing": "p.error:not(:empty)", "queue": "[data-key=find]",
             "profile": ".pool .rating-chart", "leaderboard": ".leaders tr.landmark"}
    found = {}
    for locale in ("en-GB", "fr-FR"):
        for width in (1280, 390):
            page = open_page(browser, f"{web.url}/play", locale=locale, width=width)
            page.evaluate(f"""localStorage.setItem('crab-table.player', JSON.stringify(
                {{ id: "{player['id']}", key: "{player['key']}", name: "Léa" }}))""")
            for screen, fragment in screens.items():
                page.goto(f"{web.url}/play{fragment}")
                page.wait_for_selector(ready[screen])
                found[f"{screen} {locale} {width}"] = violations(page, axe_source)
                page.screenshot(path=shots / f"axe-{screen}-{locale[:2]}-{width}.png", full_page=True)
            page.context.close()
    bad = {screen: v for screen, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
