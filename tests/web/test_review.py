"""A game finished in the browser, reviewed from its end screen: the review is asked for,
its progress shown, then each decision of the player beside the AI's choice, both chances
of winning, the worst marked, the position drawn; stepped by keyboard; in English and in
French; axe-clean at a desktop's and a phone's width. And the end screen's other links:
the replay, the player's profile, the game's archived record."""

import json
import math

import httpx
import pytest

from tests.service.archives import drained
from tests.web.browsing import create_game, open_page, play_one_turn, wait_for_turn
from tests.web.test_accessibility import violations
from tests.web.test_french import UNTRANSLATED

SHOWN = """() => ({
  status: document.querySelector('.review').dataset.status,
  title: document.querySelector('#review-title').textContent,
  versions: [...document.querySelectorAll('.review-list button.decision')].map((b) => Number(b.dataset.version)),
  worst: [...document.querySelectorAll('.review-list li.worst button')].map((b) => Number(b.dataset.version)),
  current: Number(document.querySelector('.review-detail').dataset.version),
  played: document.querySelector('.review-moves dd.played').textContent,
  best: document.querySelector('.review-moves dd.best').textContent,
  board: document.querySelectorAll('.review-detail [data-card]').length,
})"""

WORDS = {
    "en-GB": {"review": "Review my decisions", "title": "Review of your decisions", "win": "to win",
              "waiting": ("Waiting for the reviewer…", "decisions reviewed…"), "shots": ""},
    "fr-FR": {"review": "Analyser mes décisions", "title": "Analyse de vos décisions", "win": "de gagner",
              "waiting": ("En attente de l'analyse…", "décisions analysées sur"), "shots": "fr-"},
}


def finish_in_browser(page) -> str:
    create_game(page, "crabe-vs-poulpe", mode="asymmetrical", name="Ana")
    while wait_for_turn(page):
        play_one_turn(page)
    page.wait_for_selector(".end .ranking")
    return page.evaluate("location.hash.split('/')[2]")


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_game_finished_in_the_browser_is_reviewed_from_its_end_screen(web, browser, shots,
                                                                        axe_source, locale):
    words = WORDS[locale]
    page = open_page(browser, f"{web.url}/play", locale=locale)
    game_id = finish_in_browser(page)
    # The end screen links to the replay, the player's profile and the game's record.
    assert page.locator(".end [data-key=replay]").get_attribute("href") == f"#/replay/{game_id}"
    assert page.locator(".end a[href='#/profile']").count() >= 1
    record = page.locator(".end [data-key=export]").get_attribute("href")
    drained(web.url)
    lines = httpx.get(f"{web.url}{record}").text.splitlines()
    assert [json.loads(line)["id"] for line in lines] == [game_id]

    review = page.locator(".end [data-key=review]")
    assert review.inner_text() == words["review"]
    review.click()
    progress = page.locator(".review-progress p")
    progress.wait_for()  # asked for, then computed in the background: its progress first
    assert progress.inner_text().startswith(words["waiting"][0]) or words["waiting"][1] in progress.inner_text()
    page.wait_for_selector(".review[data-status=done]", timeout=60_000)
    expected = httpx.get(f"{web.url}/v1/games/{game_id}/reviews/0").json()
    shown = page.evaluate(SHOWN)
    assert shown["title"] == words["title"]
    assert shown["versions"] == [d["version"] for d in expected["decisions"]]
    assert shown["worst"] == [d["version"] for d in expected["decisions"] if d["worst"]]
    assert shown["current"] == expected["decisions"][0]["version"]
    assert words["win"] in shown["played"] and words["win"] in shown["best"]
    assert shown["board"] > 0  # the position the decision was made in
    assert page.evaluate(UNTRANSLATED) == [] or locale == "en-GB"

    # By keyboard: Down steps to the next decision, End to the last, the focus kept.
    page.locator("[data-key=decision-0]").focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate(SHOWN)["current"] == expected["decisions"][1]["version"]
    assert page.evaluate("document.activeElement.dataset.key") == "decision-1"
    page.keyboard.press("End")
    assert page.evaluate(SHOWN)["current"] == expected["decisions"][-1]["version"]
    assert page.url.endswith(f"#/review/{game_id}/0/{expected['decisions'][-1]['version']}")
    worst = [i for i, d in enumerate(expected["decisions"]) if d["worst"]]
    if worst:  # the screenshots show a decision marked as one of the worst
        page.locator(f"[data-key=decision-{worst[0]}]").click()
        assert page.locator(".review-detail .worst-mark").count() == 1

    # The curve: a point per decision at the judge's chance of winning; a click opens it.
    decisions = expected["decisions"]
    assert page.locator(".win-curve a.point").count() == len(decisions)
    page.locator(".win-curve [data-key=point-1]").click()
    assert page.evaluate(SHOWN)["current"] == decisions[1]["version"]
    figures = page.locator(".review-figures")
    assert figures.locator("[data-key=blunders]").inner_text() == str(sum(
        d["loss"] is not None and d["loss"] * 100 >= 15 for d in decisions))
    assert figures.locator("[data-key=mistakes]").inner_text() == str(sum(
        d["loss"] is not None and 10 <= d["loss"] * 100 < 15 for d in decisions))
    known = [d["loss"] for d in decisions if d["loss"] is not None]
    expected_accuracy = sum(min(100, max(0, 103.1668 * math.exp(-0.04354 * max(0, loss * 100))
                                         - 3.1669)) for loss in known) / len(known)
    assert figures.locator("[data-key=accuracy]").inner_text().replace("\u202f", " ") in (
        f"{round(expected_accuracy)}%", f"{round(expected_accuracy)} %")

    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert violations(page, axe_source) == [], width
        name = f"{words['shots']}review{'' if width > 400 else '-phone'}.png"
        page.screenshot(path=shots / name, full_page=True)
    assert page.errors == []


def test_a_review_of_a_game_not_over_says_it_opens_at_the_end(web, browser):
    created = httpx.post(f"{web.url}/v1/games", json={"game": "cup-the-crab", "players": 2}).json()
    page = open_page(browser, f"{web.url}/play#/review/{created['id']}/0")
    alert = page.locator("p.error")
    alert.wait_for()
    assert alert.inner_text() == "This game is not over yet: its review opens at its end."


def test_the_replay_links_each_seats_review(web, browser):
    page = open_page(browser, f"{web.url}/play")
    game_id = finish_in_browser(page)
    page.locator("[data-key=replay]").click()
    page.wait_for_selector(".replay")
    page.locator("[data-key=review-1]").click()
    page.wait_for_selector(".review[data-status=done]", timeout=60_000)
    assert page.url.endswith(f"#/review/{game_id}/1")
    assert page.locator("#review-title").inner_text() == "Review of Robot 2's decisions"
