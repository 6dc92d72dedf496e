"""Rated play in the browser: this browser's player, the matchmaking queue, the end
screen's new rating, the profile and the leaderboards, all by clicks in a real headless
Chromium against the real service (embedded store, SQLite archive).

Screenshots of each screen at 1280 and 390 px go to $WEB_SCREENSHOTS (conftest.py).
"""

import math

import httpx
from playwright.sync_api import Page

from tests.service.archives import drained
from tests.service.play import create, play_to_end
from tests.web.browsing import open_page, play_one_turn, wait_for_turn

GAME = "crabe-vs-poulpe"
POOL = "crabe-vs-poulpe"
EARLIER_GAMES = 4   # with the one by clicks: 5 rated games, the leaderboard's minimum


def player_of(page: Page) -> dict:
    return page.evaluate("JSON.parse(localStorage.getItem('crab-table.player'))")


def make_player(page: Page, name: str) -> dict:
    """This browser's player, made from its profile page."""
    page.locator("[data-key=profile]").click()
    page.locator("[data-key=player-name]").fill(name)
    page.locator("[data-key=make-player]").click()
    page.wait_for_selector("form.rename")
    return player_of(page)


def join_queue(page: Page, fill: str = "") -> None:
    page.goto(page.url.split("#")[0] + "#/rated")
    page.locator(f"label:has(input[name=rated-game][value='{GAME}'])").click()
    page.locator("[data-key=fill]").select_option(fill)
    page.locator("[data-key=find]").click()


def at_phone_width(page: Page, name: str, shots) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    page.screenshot(path=shots / f"{name}-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def play_together(pages: list[Page]) -> None:
    """Both players make their moves by clicks until the game is over."""
    while True:
        statuses = [page.locator(".table").get_attribute("data-status") for page in pages]
        if "over" in statuses:
            for page in pages:
                page.wait_for_selector(".table[data-status=over]")
            return
        for page in pages:
            if page.locator(".status.turn").count():
                play_one_turn(page)
        pages[0].wait_for_timeout(50)


def test_two_browsers_matched_by_the_queue_play_and_both_see_their_new_rating_and_rank(web, browser, shots):
    ann, bob = (open_page(browser, f"{web.url}/play") for _ in range(2))
    for page in (ann, bob):
        page.set_viewport_size({"width": 1280, "height": 900})
    players = [make_player(ann, "Ann"), make_player(bob, "Bob")]
    # Four earlier rated games between the same two players, played through the API (the
    # browser's keys bind the seats), so that the game by clicks, their fifth, ranks them.
    with httpx.Client(base_url=web.url, timeout=10) as client:
        for n in range(EARLIER_GAMES):
            seats = [{"type": "human", "player": p["key"]} for p in (players if n % 2 else players[::-1])]
            created = create(client, GAME, 2, seats=seats)
            play_to_end(client, created, seed=n)
        drained(web.url)
    join_queue(ann)
    ann.wait_for_selector(".waiting-room[data-status=waiting]")
    ann.wait_for_function("() => !document.querySelector('[data-key=waited]').textContent.includes('0:00')")
    ann.screenshot(path=shots / "rated-queue.png")
    at_phone_width(ann, "rated-queue", shots)
    join_queue(bob)
    for page in (ann, bob):  # each window must reach the other's rating: it widens as they wait
        page.wait_for_selector(".table[data-version]", timeout=60_000)
    ids = {page.evaluate("location.hash.split('/')[2]") for page in (ann, bob)}
    assert len(ids) == 1  # seated at one table, each with its own token kept as saved.js does
    game_id = ids.pop()
    assert all(page.evaluate(f"!!JSON.parse(localStorage.getItem('crab-table.games'))['{game_id}'].token")
               for page in (ann, bob))
    assert sorted(ann.locator(".seat .name").all_inner_texts()) == ["Ann (you)", "Bob"]
    play_together([ann, bob])
    for page, player in zip((ann, bob), players):
        page.wait_for_selector(f".rated-result[data-rated='{game_id}'] .new-rating", timeout=30_000)
        shown = page.locator(".rated-result .new-rating").inner_text()
        profile = httpx.get(f"{web.url}/v1/players/{player['id']}").json()
        rating = next(r for r in profile["ratings"] if r["pool"] == POOL)
        assert rating["rated_games"] == EARLIER_GAMES + 1 and rating["rank"] is not None
        assert rating["history"][-1]["game_id"] == game_id
        assert int(shown) == math.floor(1500 + 20 * rating["value"] + 0.5)  # the rating shown (pools.js)
        assert f"rank {rating['rank']}" in page.locator(".rated-result .rank").inner_text()
    ann.screenshot(path=shots / "rated-end.png", full_page=True)
    at_phone_width(ann, "rated-end", shots)

    # The profile: the rating with mu and sigma, the rank, the chart, the games.
    ann.locator("[data-key=to-profile]").click()
    ann.wait_for_selector(f".pool[data-pool={POOL}] .rating-chart .dot.last")
    assert ann.locator(f".pool[data-pool={POOL}] .rating-chart .dot").count() == EARLIER_GAMES + 2  # and the start
    assert ann.locator(".rating-chart .landmark").count() >= 1  # AI levels on the same scale
    assert "between AI level" in ann.locator(".pool .rank").inner_text() or "AI level" in ann.locator(".pool .rank").inner_text()
    assert ann.locator(f".recent a[data-game='{game_id}']").count() == 1
    ann.wait_for_function("() => document.querySelectorAll('.recent a[data-game]').length === 5")
    ann.screenshot(path=shots / "profile.png", full_page=True)
    at_phone_width(ann, "profile", shots)

    # The leaderboard: both ranked among the five AI levels, Ann's line highlighted.
    ann.goto(f"{web.url}/play#/leaderboards/{POOL}")
    ann.wait_for_selector(".leaders tbody tr")
    board = httpx.get(f"{web.url}/v1/leaderboards/{POOL}", params={"limit": 100}).json()
    lines = {line["player"]["id"]: line for line in board["lines"]}
    assert all(p["id"] in lines for p in players)
    assert all(f"ai-{n}" in lines for n in range(1, 6))
    mine = ann.locator("tr.me")
    assert mine.count() == 1 and mine.get_attribute("data-player") == players[0]["id"]
    assert mine.locator("td").first.inner_text() == str(lines[players[0]["id"]]["rank"])
    assert ann.locator("tr.landmark").count() == 5
    ann.screenshot(path=shots / "leaderboard.png", full_page=True)
    at_phone_width(ann, "leaderboard", shots)
    for page in (ann, bob):
        assert page.errors == []


def test_a_ticket_cancelled_is_never_seated_and_the_form_comes_back(web, browser):
    page = open_page(browser, f"{web.url}/play")
    join_queue(page)
    page.wait_for_selector(".waiting-room[data-status=waiting]")
    page.locator("[data-key=cancel]").click()
    page.wait_for_selector("[data-key=find]")
    assert "You left the queue" in page.locator(".actions .note").inner_text()
    player = player_of(page)
    assert player["key"].startswith("crab_pk_")
    games = httpx.get(f"{web.url}/v1/players/{player['id']}/games").json()["games"]
    assert games == []
    assert page.errors == []


def test_a_ticket_that_allows_it_is_seated_with_an_ai_level_and_the_newcomer_placed_unranked(web, browser, shots):
    page = open_page(browser, f"{web.url}/play")
    page.set_viewport_size({"width": 1280, "height": 900})
    join_queue(page, fill="10")
    page.wait_for_selector(".waiting-room .note")  # when the AI fills the table
    page.wait_for_selector(".table[data-version]", timeout=30_000)
    assert page.locator(".seat .badge.ai").count() == 1
    game_id = page.evaluate("location.hash.split('/')[2]")
    body = httpx.get(f"{web.url}/v1/games/{game_id}").json()
    player = player_of(page)["id"]
    assert body["rated"] is True
    assert sorted(seat["player"][:2] for seat in body["seats"]) == ["ai", "p_"]
    assert player in [seat["player"] for seat in body["seats"]]
    while wait_for_turn(page):
        play_one_turn(page)
    page.wait_for_selector(f".rated-result[data-rated='{game_id}'] .new-rating", timeout=30_000)
    assert "not ranked yet: 4 more rated games" in page.locator(".rated-result .rank").inner_text()
    # One rated game: not on the leaderboard yet, but drawn where its rating places it.
    page.goto(f"{web.url}/play#/leaderboards/{POOL}")
    page.wait_for_selector(f"tr.me.unranked[data-player='{player}']")
    mine = page.locator("tr.me")
    assert mine.locator("td").first.inner_text() == "–"
    value = httpx.get(f"{web.url}/v1/players/{player}").json()["ratings"][0]["value"]
    shown = [int(v) for v in page.locator(".leaders tbody td:nth-child(3)").all_inner_texts()]
    assert shown == sorted(shown, reverse=True) and math.floor(1500 + 20 * value + 0.5) in shown
    page.screenshot(path=shots / "leaderboard-newcomer.png", full_page=True)
    # An AI level's line opens its profile: a fixed rating in every pool.
    page.locator("tr[data-player=ai-2] a").click()
    page.wait_for_selector(".profile .pool")
    assert page.locator("h2.player-name").inner_text() == "AI level 2"
    pools = httpx.get(f"{web.url}/v1/leaderboards").json()["pools"]
    assert page.locator(".profile .pool").count() == len(pools)
    assert page.errors == []


def test_the_players_name_changes_on_its_profile_and_on_the_server(web, browser):
    page = open_page(browser, f"{web.url}/play")
    player = make_player(page, "Before")
    page.locator("[data-key=player-name]").fill("After")
    page.locator("[data-key=rename]").click()
    page.wait_for_function("() => document.querySelector('form.rename [role=status]').textContent === 'Saved.'")
    assert httpx.get(f"{web.url}/v1/players/{player['id']}").json()["name"] == "After"
    assert player_of(page)["name"] == "After"
    assert page.errors == []


def test_the_rated_screens_speak_french_to_a_french_browser(web, browser, shots):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR",
                                  reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"{web.url}/play#/rated")
    page.wait_for_selector("[data-key=find]")
    assert page.locator("[data-key=find]").inner_text() == "Trouver une partie"
    assert "compléter la table avec l’IA après 30 s" in page.locator("[data-key=fill]").inner_text()
    page.screenshot(path=shots / "rated-queue-form-fr.png")
    at_phone_width(page, "rated-queue-form-fr", shots)
    page.goto(f"{web.url}/play#/leaderboards/{POOL}")
    page.wait_for_selector(".leaders tr.landmark")
    assert page.locator(".leaders thead th").first.inner_text() == "Rang"
    assert "IA niveau 3" in page.locator(".leaders").inner_text()
    page.screenshot(path=shots / "leaderboard-fr.png", full_page=True)
    page.goto(f"{web.url}/play#/profile")
    page.wait_for_selector("[data-key=make-player]")
    assert page.locator("[data-key=make-player]").inner_text() == "Créer mon joueur"
    page.locator("[data-key=player-name]").fill("Léa")
    page.locator("[data-key=make-player]").click()
    page.wait_for_selector("form.rename")
    assert page.locator("[data-key=rename]").inner_text() == "Enregistrer le nom"
    assert "Aucune partie jouée" in page.locator(".profile").inner_text()
    page.screenshot(path=shots / "profile-new-fr.png")
    assert errors == []
    context.close()
