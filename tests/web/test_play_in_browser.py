"""Whole games played by clicks in a real headless Chromium against the real service.

The start page, each game's table mid-game and its end are saved as screenshots (see
conftest.py: `WEB_SCREENSHOTS=docs/images python -m pytest tests/web` refreshes the
pictures of docs/client.md).
"""

import re

import httpx
import pytest

import core

from tests.web.browsing import (choose, create_game, game_id_of, layout, open_page, play_one_turn,
                                shown_hand, token_of, version, wait_for_turn)


def final_result(web, page) -> dict:
    game_id = game_id_of(page)
    body = httpx.get(f"{web.url}/v1/games/{game_id}",
                     headers={"Authorization": f"Bearer {token_of(page, game_id)}"}).json()
    assert body["status"] == "over"
    return body["result"]


def test_the_start_page_offers_both_games_and_a_seat_choice(web, browser, shots):
    page = open_page(browser, f"{web.url}/play")
    page.wait_for_selector("form.setup")
    assert page.locator("input[name=game]").evaluate_all("n => n.map(x => x.value)") == [
        "cup-the-crab", "crabe-vs-poulpe"]
    choose(page, "game", "crabe-vs-poulpe")
    assert page.locator("input[name=mode]").count() == 2
    assert page.locator("[data-key=type-2]").count() == 0  # a duel has two seats
    choose(page, "game", "cup-the-crab")
    choose(page, "players", "5")
    assert page.locator("[data-key=type-4]").count() == 1
    choose(page, "players", "3")
    page.screenshot(path=shots / "start.png")
    assert page.errors == []


def test_the_client_registers_each_game_core_offers_with_its_player_counts(web, browser):
    page = open_page(browser, f"{web.url}/play")
    page.wait_for_selector("form.setup")
    registered = page.evaluate("""async () => (await import("/play/js/games.js")).games()
        .map((game) => [game.name, game.players])""")
    assert registered == [[name, [min(counts), max(counts)]] for name, counts in core.PLAYERS.items()]
    assert page.errors == []


def test_cup_the_crab_with_three_seats_is_played_by_clicks_to_the_result(web, browser, shots):
    page = open_page(browser, f"{web.url}/play", motion="no-preference")  # moves one by one
    create_game(page, "cup-the-crab", players=3)
    assert page.locator(".seat").count() == 3
    page.locator("[data-key=hint]").click()  # the hint fills the secret selection
    page.wait_for_selector(".tray .card.hint")
    assert page.locator(".tray [data-card]").count() == 3
    shot_mid_game = False
    layouts = set()
    while wait_for_turn(page):
        layouts.add(layout(page))
        if "Round 4" in page.locator(".game-name").inner_text() and \
                not page.locator("[data-key=confirm]").count() and not shot_mid_game:
            page.locator(".tray button.card").first.click()  # mid-game: a card and its targets
            assert page.locator("button.slot.target").count() >= 1
            page.screenshot(path=shots / "cup-the-crab-table.png")
            page.set_viewport_size({"width": 390, "height": 844})
            assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
            page.screenshot(path=shots / "cup-the-crab-phone.png", full_page=True)
            page.set_viewport_size({"width": 1200, "height": 900})
            page.keyboard.press("Escape")
            assert page.locator("button.slot.target").count() == 0
            shot_mid_game = True
        play_one_turn(page)
    result = final_result(web, page)
    page.wait_for_selector(".end .ranking")
    rows = page.locator(".ranking tbody tr")
    assert rows.count() == 3
    for row, expected in zip(rows.all(), result["ranking"]):
        assert row.locator("td").nth(2).inner_text() == str(expected["score"])
    assert page.locator(".end .log li").count() == 6 * 3 + 21 * 3  # six selections a seat, 21 cards each
    # Each claim in the log says the points it took: they add up to each seat's score.
    claimed = [0, 0, 0]
    for line in page.locator(".end .log li").all_inner_texts():
        if found := re.fullmatch(r"#\d+ (You|Robot (\d)) claimed stack \d with an? (Crab|Octopus): (\d+) points?", line):
            claimed[int(found[2]) - 1 if found[2] else 0] += int(found[4])
    assert claimed == result["scores"]
    assert shot_mid_game
    assert len(layouts) == 1, layouts  # no layout shift from the first turn to the last
    page.screenshot(path=shots / "cup-the-crab-end.png", full_page=True)
    assert page.errors == []


@pytest.mark.parametrize("mode", ["symmetrical", "asymmetrical"])
def test_crabe_vs_poulpe_is_played_by_clicks_against_the_ai_to_the_result(web, browser, shots, mode):
    page = open_page(browser, f"{web.url}/play")
    create_game(page, "crabe-vs-poulpe", mode=mode, clock="2 min a turn")
    assert page.locator(".game-name").inner_text() == f"Crabe vs Poulpe · {mode}"  # the deck
    clock = page.locator(".seat.to-move .clock")
    clock.wait_for()
    assert clock.inner_text() in ("2:00", "1:59", "1:58")  # the turn clock counts down
    turns = 0
    layouts = set()
    while wait_for_turn(page):
        layouts.add(layout(page))
        if turns == 6:
            page.screenshot(path=shots / f"crabe-vs-poulpe-{mode}-table.png")
        play_one_turn(page)
        turns += 1
    assert len(layouts) == 1, layouts  # no layout shift from the first turn to the last
    result = final_result(web, page)
    page.wait_for_selector(".end .ranking")
    winner = page.locator(".ranking tr.winner td").nth(1).inner_text()
    assert winner == ("You" if result["winner"] == 0 else "Robot 2")
    assert page.locator(".end h2.headline").inner_text() == ("You win!" if result["winner"] == 0 else "You lost")
    assert page.locator(".rule").inner_text() == ""  # no card follows the last one
    assert page.locator(".end .log li").count() >= turns
    page.wait_for_timeout(1000)  # the server has ended the stream: that is no trouble to show
    assert page.locator(".prompt .error").inner_text() == ""
    page.screenshot(path=shots / f"crabe-vs-poulpe-{mode}-end.png", full_page=True)
    last = page.locator(".end .log li").last.inner_text()
    assert last.endswith(("wins the game", "you win the game"))
    page.locator("[data-key=replay]").click()  # from the end screen to its replay
    page.wait_for_selector(".replay[data-version='0']")
    assert page.locator(".replay-seat").count() == 2
    assert page.locator(".game-name").inner_text() == f"Crabe vs Poulpe · replay · {mode}"
    assert page.errors == []


def test_two_friends_joined_by_a_link_each_see_only_their_own_hand(web, browser, shots):
    host = open_page(browser, f"{web.url}/play")
    create_game(host, "crabe-vs-poulpe", friends=(1,), name="Ana")
    host.wait_for_selector(".table[data-status=waiting]")
    link = host.locator(".invite input.link").input_value()
    host.screenshot(path=shots / "invite.png")
    waiting_layout = layout(host)
    game_id = game_id_of(host)
    assert link == f"{web.url}/play#/join/{game_id}/1"
    guest = open_page(browser, f"{web.url}/play")
    guest.wait_for_selector(".lobby .note, .lobby .game-list")  # the waiting list has been read
    assert guest.locator(f".lobby a[href='#/join/{game_id}']").count() == 0  # for friends only
    guest.goto(link)
    guest.locator("input[name=name]").fill("Bo")
    guest.locator("[data-key=join]").click()
    guest.wait_for_selector(".table[data-status=active]")
    host.wait_for_selector(".table[data-status=active]")  # the join came by the event stream
    assert layout(host) == waiting_layout  # the table stays where it was as the game starts
    assert host.locator(".seat .name").all_inner_texts() == ["Ana (you)", "Bo"]
    assert guest.locator(".seat .name").all_inner_texts() == ["Ana", "Bo (you)"]
    for page in (host, guest):  # no AI whispering to either side (the server refuses it too)
        assert page.locator("[data-key=hint]").count() == 0
    seats = {token_of(page, game_id): page for page in (host, guest)}
    assert len(seats) == 2  # two seats, two tokens
    moves = 0
    while host.locator(".table").get_attribute("data-status") != "over":
        for token, page in seats.items():
            body = httpx.get(f"{web.url}/v1/games/{game_id}",
                             headers={"Authorization": f"Bearer {token}"}).json()
            page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) >= {body['version']}")
            assert sorted(shown_hand(page)) == sorted(body["view"]["hand"] or [])
            assert page.locator(".opponent-hand [data-card]").count() == 0  # backs only
            if body["legal_moves"] and body["status"] == "active":
                play_one_turn(page)
                moves += 1
                break
        else:
            host.wait_for_timeout(100)
        if moves == 4:
            guest.screenshot(path=shots / "two-players-guest.png")
    for page in seats.values():
        page.wait_for_selector(".end .ranking")
        assert page.errors == []
    host.locator("[data-key=rematch]").click()  # offered: the guest must accept it
    guest.locator("[data-key=rematch]", has_text="Accept the rematch").click()
    guest.wait_for_function(f"() => !location.hash.includes('{game_id}')")
    rematch = game_id_of(guest)  # the same seats again, each keeping its token
    host.wait_for_function(f"() => location.hash.endsWith('{rematch}')")
    for page in seats.values():
        page.wait_for_selector(".table[data-status=active]")
        assert len(shown_hand(page)) == 5
    assert host.locator(".seat .name").all_inner_texts() == ["Ana (you)", "Bo"]


def test_a_game_that_cannot_be_opened_is_explained_in_words(web, browser):
    page = open_page(browser, f"{web.url}/play#/g/no-such-game")
    alert = page.locator("p.error")
    alert.wait_for()
    assert alert.inner_text() == ("This game cannot be opened. No game has this id (or it expired"
                                  " after going idle).")
    page.locator("[data-key=home]").click()
    page.wait_for_selector("form.setup")
    assert page.errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]


def test_the_keyboard_alone_plays_crabe_vs_poulpe(web, browser):
    page = open_page(browser, f"{web.url}/play")
    create_game(page, "crabe-vs-poulpe")
    assert wait_for_turn(page)
    assert page.title().startswith("● Your turn")  # seen from another tab too
    page.keyboard.press("h")  # a hint, by its key: the suggested move lights up
    page.wait_for_selector(".hint")
    for _ in range(4):
        if not wait_for_turn(page):
            break
        before = version(page)
        for _ in range(40):  # Tab to the first thing that makes a move, then Enter
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('button.choosable, .prompt button.move')"):
                break
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
    assert version(page) >= 4
    assert page.errors == []


def test_a_half_made_secret_selection_survives_another_seats_selection(web, browser):
    host = open_page(browser, f"{web.url}/play")
    create_game(host, "cup-the-crab", players=2, friends=(1,))
    guest = open_page(browser, host.locator(".invite input.link").input_value())
    guest.locator("[data-key=join]").click()
    host.wait_for_selector(".table[data-status=active]")
    for _ in range(2):
        host.locator(".reserve button.card:enabled").first.click()
    chosen = host.locator(".tray button.card").evaluate_all("n => n.map(c => c.dataset.card)")
    before = version(host)
    play_one_turn(guest)  # the friend's three cards are chosen and confirmed
    host.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
    assert host.locator(".tray button.card").evaluate_all("n => n.map(c => c.dataset.card)") == chosen
    assert host.locator(".seat").nth(1).inner_text().endswith("✓ has chosen")
    assert host.errors == [] and guest.errors == []


def test_a_player_whose_clock_runs_out_sees_the_forfeit_in_words(web, browser):
    created = httpx.post(f"{web.url}/v1/games", json={
        "game": "cup-the-crab", "players": 2, "turn_seconds": 2, "on_timeout": "forfeit",
        "seats": [{"type": "open"}, {"type": "ai", "iterations": 30}]}).json()
    page = open_page(browser, f"{web.url}/play#/join/{created['id']}/0")
    page.locator("input[name=name]").fill("Ana")
    page.locator("[data-key=join]").click()
    clock = page.locator(".seat.me.to-move .clock")
    clock.wait_for()
    assert clock.inner_text() in ("0:02", "0:01", "0:00")
    page.wait_for_selector(".end .ranking")
    assert page.locator(".end .note").inner_text() == "You ran out of time: the game ended by forfeit."
    assert page.locator(".end .log li").last.inner_text().endswith("You ran out of time: forfeit")
    assert page.errors == []


def test_a_name_typed_before_the_games_details_arrive_is_the_name_joined_with(web, browser):
    created = httpx.post(f"{web.url}/v1/games", json={
        "game": "cup-the-crab", "players": 2, "seats": [{"type": "human"}, {"type": "open"}]}).json()
    page = open_page(browser, f"{web.url}/play")
    held = []  # the join page's read of the game, answered only once the name is typed
    read_of_the_game = f"**/v1/games/{created['id']}"
    page.route(read_of_the_game, lambda route: held.append(route))
    page.goto(f"{web.url}/play#/join/{created['id']}/1")
    page.locator("input[name=name]").fill("Bo")
    while not held:
        page.wait_for_timeout(20)
    held[0].continue_()
    page.unroute(read_of_the_game)
    page.get_by_text("1 seat still open.").wait_for()  # the page was drawn again
    assert page.locator("input[name=name]").input_value() == "Bo"
    page.locator("[data-key=join]").click()
    page.wait_for_selector(".table[data-status=active]")
    seats = httpx.get(f"{web.url}/v1/games/{created['id']}").json()["seats"]
    assert seats[1]["name"] == "Bo"
    assert page.errors == []
