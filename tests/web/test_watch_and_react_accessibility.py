"""axe on the screens of watching and reacting, at 1280 and 390 px in English and French:
the table with a reaction shown, the start page's live games, a spectator's table; no
French left untranslated. (Apart from test_watch_and_react.py so that each file runs
well under two minutes on a worker of its own.)"""

import json

import pytest

from tests.web.browsing import open_page
from tests.web.test_accessibility import violations
from tests.web.test_after_game import plain, seated, violations_in
from tests.web.test_french import UNTRANSLATED
from tests.web.test_watch_and_react import (
    GAME,
    SIZES,
    live_table,
    open_reactions,
    react_until_heard,
)


@pytest.mark.parametrize("locale,width", SIZES)
def test_the_watching_and_reacting_screens_pass_axe(web, browser, axe_source, shots, locale,
                                                    width):
    game_id, tokens = live_table(web)
    player = seated(browser, web, game_id, tokens[0], GAME, locale=locale, width=width)
    other = seated(browser, web, game_id, tokens[1], GAME)
    react_until_heard(other, "hurry-up", player)
    open_reactions(player)  # the phrases open over the table, checked with it
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
