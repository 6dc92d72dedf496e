"""Axe on the after-game's screens (the resign confirmation, the rematch offered and
awaited, a reaction said and heard there) at both widths in both languages, two browsers playing by clicks (the flows
themselves: test_after_game.py)."""

import json

import pytest

from tests.web.test_accessibility import violations
from tests.web.test_after_game import PRESENCE_MS, two_people
from tests.web.test_french import UNTRANSLATED
from tests.web.test_watch_and_react import AFTER_GAME_HEARD_MS, open_reactions, say


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
    say(ana, "good-game")  # said at the after-game table: heard with Bo's next beat
    bo.wait_for_selector(".seat .bubble[data-phrase=good-game]", timeout=AFTER_GAME_HEARD_MS)
    found["a reaction heard after the game"] = violations(bo, axe_source)
    open_reactions(ana)
    found["the phrases after the game"] = violations(ana, axe_source)
    language = locale[:2]
    bo.screenshot(path=shots / f"rematch-offered-{language}-{width}.png", full_page=True)
    bad = {screen: v for screen, v in found.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
    if language == "fr":
        assert bo.evaluate(UNTRANSLATED) == []
