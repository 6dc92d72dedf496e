"""A finished game replayed in the browser: the table at every version, every card shown,
exactly the positions the API's replay gives (the core's own), stepped by keys, buttons
and the slider, the log in step."""

import random

import httpx
import pytest

from tests.web.browsing import open_page

# What the page shows of a position, read in one go: every seat's cards, the table.
SHOWN = """() => {
  const cards = (root, selector) => [...root.querySelectorAll(selector)].map((n) => n.dataset.card);
  const page = document.querySelector('.replay');
  return {
    version: Number(page.dataset.version),
    now: document.querySelector('.now').textContent,
    current: [...document.querySelectorAll('.replay-log li')].findIndex((li) => li.classList.contains('current')),
    slider: Number(document.querySelector('[data-key=slider]').value),
    seats: [...document.querySelectorAll('.replay-seat')].map((seat) => ({
      hand: cards(seat, '.in-hand [data-card]'), draw: cards(seat, '.in-draw [data-card]'),
      reserve: cards(seat, '.in-reserve [data-card]')})),
    pile: cards(page, '.pile [data-card]'),
    more: document.querySelector('.pile .more')?.textContent ?? null,
    stacks: [...document.querySelectorAll('.replay-board [data-key^=slot-]')].map((slot) => cards(slot, '[data-card]')),
    discards: cards(page, '.replay-board [data-key=discards] [data-card]'),
    pending: document.querySelector('.replay-board .pending:not(.none)')?.textContent ?? null,
  };
}"""


def finished_game(url: str, game: str, seed: int) -> str:
    """A game against the AI played to its end through the API with random legal moves."""
    created = httpx.post(f"{url}/v1/games", json={
        "game": game, "players": 2, "seed": seed, "options": {"mode": "asymmetrical"} if game != "cup-the-crab" else None,
        "seats": [{"type": "human", "name": "Ana"}, {"type": "ai", "level": 1}]}).json()
    game_id, seat = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    rng = random.Random(seed)
    while (body := httpx.get(f"{url}/v1/games/{game_id}", headers=seat).json())["status"] != "over":
        answer = httpx.post(f"{url}/v1/games/{game_id}/moves", headers=seat,
                            json={"move": rng.choice(body["legal_moves"]), "expected_version": body["version"]})
        assert answer.status_code == 200, answer.text
    return game_id


def expected(game: str, position: dict) -> dict:
    if game == "crabe-vs-poulpe":
        pile = position["pile"]
        return {"seats": [{"hand": s["hand"], "draw": s["draw_pile"], "reserve": []} for s in position["seats"]],
                "pile": pile[-8:], "more": f"+{len(pile) - 8}" if len(pile) > 8 else None}
    return {"seats": [{"hand": sorted(s["hand"]), "draw": [], "reserve": sorted(s["reserve"])} for s in position["seats"]],
            "stacks": [stack["cards"] if stack else [] for stack in position["stacks"]],
            "discards": position["discards"][-3:]}


def seen(game: str, shown: dict) -> dict:
    if game == "crabe-vs-poulpe":
        return {key: shown[key] for key in ("seats", "pile", "more")}
    return {"seats": [{**s, "hand": sorted(s["hand"]), "reserve": sorted(s["reserve"])} for s in shown["seats"]],
            "stacks": shown["stacks"], "discards": shown["discards"]}


@pytest.mark.parametrize("game", ["cup-the-crab", "crabe-vs-poulpe"])
def test_a_replay_stepped_from_start_to_end_shows_every_position_the_api_gives(web, browser, shots, game):
    game_id = finished_game(web.url, game, seed=11)
    replay = httpx.get(f"{web.url}/v1/games/{game_id}/replay").json()
    page = open_page(browser, f"{web.url}/play/replay/{game_id}")  # the shareable address
    page.wait_for_selector(".replay")
    assert page.url.endswith(f"/play#/replay/{game_id}")
    last = len(replay["versions"]) - 1
    for index, step in enumerate(replay["versions"]):
        shown = page.evaluate(SHOWN)
        assert shown["version"] == step["version"] and shown["slider"] == index
        assert seen(game, shown) == expected(game, step["position"]), f"version {step['version']}"
        if game == "crabe-vs-poulpe":  # an effect waiting or resolving is said, as at the table
            assert (shown["pending"] is not None) == (step["position"]["phase"] not in ("turn", "over")), \
                f"version {step['version']}"
        assert shown["current"] == index - 1  # the log's entry of this version (none at the deal)
        assert shown["now"].startswith(f"#{step['version']} ") if index else "deal" in shown["now"]
        if index < last:
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"() => document.querySelector('.replay').dataset.index === '{index + 1}'")
    assert page.locator("[data-key=forward]").is_disabled()
    assert page.url.endswith(f"/{replay['version']}")  # the address names the version shown
    page.keyboard.press("Home")
    assert page.evaluate(SHOWN)["version"] == 0
    page.locator("[data-key=last]").click()
    assert page.evaluate(SHOWN)["version"] == replay["version"]
    page.locator("[data-key=back]").click()
    page.locator("[data-key=slider]").fill(str(last // 2))  # the slider goes anywhere
    middle = replay["versions"][last // 2]
    shown = page.evaluate(SHOWN)
    assert shown["version"] == middle["version"] and seen(game, shown) == expected(game, middle["position"])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=shots / f"{game}-replay.png")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=shots / f"{game}-replay-phone.png")
    page.mouse.wheel(0, 2500)  # far down the long page, the step controls are still at hand
    page.wait_for_function("() => scrollY > 1000")
    steps = page.locator(".steps").bounding_box()
    assert 0 <= steps["y"] <= 1 and page.locator("[data-key=back]").is_visible()
    page.screenshot(path=shots / f"{game}-replay-phone-scrolled.png")
    page.mouse.wheel(0, -5000)
    page.set_viewport_size({"width": 1200, "height": 900})
    page.locator(f"[data-key=step-{last}]").click()  # a log entry goes to its version
    assert page.evaluate(SHOWN)["version"] == replay["version"]
    assert page.errors == []


def test_a_game_not_over_has_no_replay_yet_and_says_so(web, browser):
    created = httpx.post(f"{web.url}/v1/games", json={"game": "crabe-vs-poulpe", "players": 2}).json()
    page = open_page(browser, f"{web.url}/play#/replay/{created['id']}")
    alert = page.locator("p.error")
    alert.wait_for()
    assert alert.inner_text() == "This game is not over yet: its replay, every card shown, opens at its end."
    assert page.locator(".replay-seat").count() == 0
