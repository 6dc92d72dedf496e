"""The whole client in French for a browser that speaks French: every screen, both games,
no sentence left in English (i18n.js counts the keys French lacks), card names as the
rulebooks give them, and a switch of language that is remembered."""

import httpx

from tests.web.browsing import (choose, create_game, open_page, play_one_turn,
                                wait_for_turn)

UNTRANSLATED = """async () => (await import("/play/js/i18n.js")).untranslated()"""


# A sign of ; : ! ? ending a word with no narrow no-break space before it (a plain space,
# a no-break one, none): French typography wants the same thin space before each of them.
LOOSE_PUNCTUATION = r"""() => [...document.body.innerText.matchAll(/(?:\S|[ \u00a0])[;:!?](?=\s|$)/g)]
    .map((m) => document.body.innerText.slice(Math.max(0, m.index - 20), m.index + 3))"""


def shoot(page, shots, name: str) -> None:
    """The screen at 1280 px and at 390 px (a phone), full length; its French typography
    checked on the way."""
    assert page.evaluate(LOOSE_PUNCTUATION) == []
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=shots / f"{name}.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing off the side
    page.screenshot(path=shots / f"{name}-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_french_browser_gets_every_screen_in_french(web, browser, shots):
    page = open_page(browser, f"{web.url}/play", locale="fr-FR")
    page.wait_for_selector("form.setup")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator("[data-key=create]").inner_text() == "Créer la partie"
    shoot(page, shots, "fr-start")
    create_game(page, "crabe-vs-poulpe", mode="asymmetrical", name="Anaïs")
    assert page.locator(".status").inner_text() in ("À vous", "Les autres jouent")
    turns = 0
    while wait_for_turn(page):
        if turns == 6:
            shoot(page, shots, "fr-crabe-vs-poulpe-table")
        play_one_turn(page)
        turns += 1
    page.wait_for_selector(".end .ranking")
    assert page.locator(".end h2.headline").inner_text() in ("Vous gagnez\u202f!", "Vous avez perdu")
    log = " ".join(page.locator(".end .log li").all_inner_texts())
    assert "Vous avez joué" in log and "Robot 2 a " in log
    shoot(page, shots, "fr-crabe-vs-poulpe-end")
    page.locator("[data-key=replay]").click()
    page.wait_for_selector(".replay")
    assert page.locator(".now").inner_text() == "La donne\u202f: chaque carte là où la partie a commencé."
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    shoot(page, shots, "fr-replay")

    page.goto(f"{web.url}/play")
    create_game(page, "cup-the-crab", players=3)
    for _ in range(8):
        if not wait_for_turn(page):
            break
        play_one_turn(page)
    assert page.locator(".game-name").inner_text().startswith("Cup the Crab · Manche ")
    shoot(page, shots, "fr-cup-the-crab-table")

    page.goto(f"{web.url}/play")
    create_game(page, "cup-the-crab", players=2, friends=(1,))
    page.wait_for_selector(".invite")
    shoot(page, shots, "fr-invite")
    guest = open_page(browser, page.locator(".invite input.link").input_value(), locale="fr-CA")
    guest.wait_for_selector("[data-key=join]")
    assert guest.locator("[data-key=join]").inner_text() == "Prendre la place 2"
    shoot(guest, shots, "fr-join")
    assert page.evaluate(UNTRANSLATED) == [] and guest.evaluate(UNTRANSLATED) == []
    guest.locator("input[name=name]").fill("Bo")
    guest.locator("[data-key=join]").click()
    for viewer, arrival in ((guest, "Vous vous êtes assis·e"), (page, "Bo s'est assis·e")):
        viewer.wait_for_selector(".table[data-status=active]")
        viewer.wait_for_function("""words => [...document.querySelectorAll('.log li')]
                                    .some(li => li.innerText.replace(/[\u2066-\u2069]/g, '')
                                                .includes(words))""", arg=arrival)  # names isolated
    assert "Vous s'est" not in guest.locator(".log").inner_text()
    assert page.evaluate(UNTRANSLATED) == [] and guest.evaluate(UNTRANSLATED) == []
    assert page.errors == [] and guest.errors == []


def test_an_api_problem_is_said_in_the_clients_own_french(web, browser):
    page = open_page(browser, f"{web.url}/play#/g/no-such-game", locale="fr-FR")
    alert = page.locator("p.error")
    alert.wait_for()
    assert alert.inner_text() == ("Impossible d'ouvrir cette partie. Aucune partie n'a cet identifiant"
                                  " (ou elle a expiré faute de coups).")
    problem = httpx.get(f"{web.url}/v1/games/no-such-game").json()
    assert problem["title"] == "Not found"  # the API itself stays English


def test_the_language_switch_is_remembered(web, browser):
    page = open_page(browser, f"{web.url}/play", locale="fr-FR")
    page.wait_for_selector("form.setup")
    page.locator("[data-key=language]").select_option("en")
    page.wait_for_function("() => document.querySelector('[data-key=create]').textContent === 'Create game'")
    page.reload()
    page.wait_for_selector("form.setup")
    assert page.locator("[data-key=create]").inner_text() == "Create game"  # despite the French browser
    assert page.evaluate("document.documentElement.lang") == "en"
    choose(page, "game", "crabe-vs-poulpe")
    page.locator("[data-key=language]").select_option("fr")
    page.wait_for_function("() => document.querySelector('[data-key=create]').textContent === 'Créer la partie'")
