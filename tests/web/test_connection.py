"""Truthful about the connection, as a player meets it: the server killed and started
again, the browser offline and back, a game deleted from the store, a join link to a game
that does not exist. Each test checks what the page says afterwards, and that it clears
when it should, not only that it said something during."""

import httpx
import redis

from service.store import keys
from tests.service.servers import SHARED_REDIS, free_port, server
from tests.web.browsing import CVP_CHOICES, create_game, open_page, play_one_turn, version, wait_for_turn
from tests.web.test_troubles import replica

UNREACHABLE = "The server cannot be reached, retrying…"
OFFLINE = "You are offline: the table catches up as soon as your connection is back."
# The longest wait between two attempts (stream.js, RETRY_MS) and a start of the page's
# requests on a loaded machine.
RECONNECT_MS = 15_000 + 5_000


def trouble(page) -> str:
    return page.locator(".prompt .error").inner_text()


def says(page, words: str, timeout: int = 10_000) -> None:
    """Waits until the prompt's error line says words ("" : nothing)."""
    page.wait_for_function("(words) => document.querySelector('.prompt .error')?.textContent === words",
                           arg=words, timeout=timeout)


def friends_at_one_table(browser, url: str):
    """A host who creates a Crabe vs Poulpe game for a friend, and the friend who joins it
    by the link: both tables open."""
    host = open_page(browser, f"{url}/play")
    create_game(host, "crabe-vs-poulpe", friends=(1,), name="Ana")
    guest = open_page(browser, host.locator(".invite input.link").input_value())
    guest.locator("[data-key=name]").fill("Bo")
    guest.locator("[data-key=join]").click()
    for page in (host, guest):
        page.wait_for_selector(".table[data-status=active]")
    return host, guest


def to_move_first(host, guest):
    return (host, guest) if host.locator(".status.turn").count() else (guest, host)


def test_both_players_are_told_the_server_is_gone_and_told_nothing_once_it_is_back(browser):
    """No move is made while the server is down: the warning clears because the streams
    open again, and they are live (the next move reaches the other player at once)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with replica(port):
        host, guest = friends_at_one_table(browser, url)
        mover, waiter = to_move_first(host, guest)
        assert wait_for_turn(mover)
    for page in (host, guest):  # killed: both are told
        says(page, UNREACHABLE)
    with replica(port):  # back: both warnings go, with no move to bring them away
        for page in (host, guest):
            says(page, "", timeout=RECONNECT_MS)
        before = version(waiter)
        play_one_turn(mover)
        waiter.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
        assert trouble(host) == trouble(guest) == ""
        assert host.locator(".gone").count() == guest.locator(".gone").count() == 0


def test_a_player_who_goes_offline_is_told_at_once_and_the_failed_move_unsaid_once_back(web, browser):
    page = open_page(browser, f"{web.url}/play")
    create_game(page, "crabe-vs-poulpe")
    assert wait_for_turn(page)
    before = version(page)
    page.context.set_offline(True)
    says(page, OFFLINE, timeout=2_000)  # at once, before any request fails
    assert page.locator(".status.turn").count() == 1  # the turn is still the player's
    next(page.locator(s) for s in CVP_CHOICES if page.locator(s).count()).first.click()
    says(page, "The server cannot be reached; check your connection.", timeout=5_000)
    assert version(page) == before
    page.context.set_offline(False)
    says(page, "", timeout=5_000)  # back: the stream opens again at once, the error goes
    assert version(page) == before
    play_one_turn(page)  # and the move goes through now
    assert trouble(page) == ""


def test_a_game_deleted_from_the_store_is_said_at_the_top_to_every_seat(browser, shots):
    """The seat to move and the seat waiting for it are both told, at the top of the page
    in view, by the stream's end (no move needed), and nothing is offered or read after."""
    settings = {"REDIS_URL": SHARED_REDIS, "ACCESS_LOG": "0", "EVENTS_KEEP_ALIVE_SECONDS": "1"}
    with server(settings) as running:
        host, guest = friends_at_one_table(browser, running.url)
        game_id = host.evaluate("location.hash.split('/')[2]")
        stored = keys.game(game_id)
        with redis.Redis.from_url(SHARED_REDIS) as store:
            assert store.delete(stored.state, stored.log, stored.records, stored.undos) >= 1
        for page in (host, guest):
            gone = page.locator("p.gone")
            gone.wait_for(timeout=10_000)
            assert gone.inner_text().startswith("This game is no longer on the server")
            assert page.locator(".status").inner_text() == "Game unavailable"
            box, seats = gone.bounding_box(), page.locator(".seats").bounding_box()
            assert box["y"] + box["height"] <= min(seats["y"], 900)  # above the table, in view
            assert page.locator(".prompt .say").inner_text() == ""  # no "You open the round…"
            assert page.locator("button.card.choosable, .prompt button.move, [data-key=hint]").count() == 0
        host.screenshot(path=shots / "game-gone.png")
        asked = []
        guest.on("request", lambda request: "/v1/games/" in request.url and asked.append(request.url))
        guest.wait_for_timeout(2_000)
        assert asked == []  # nothing reads a game that is gone


def test_a_join_link_to_no_game_says_so_with_nothing_to_fill(web, browser):
    page = open_page(browser, f"{web.url}/play#/join/no-such-game/1")
    error = page.locator("p.error")
    page.locator("p.error:not(:empty)").wait_for()  # the box is there, empty, before the 404
    assert error.inner_text().startswith("This game cannot be joined. No game has this id")
    assert page.locator("form, input, [data-key=join]").count() == 0
    assert page.locator("a[href='#/']").inner_text() == "Back to the start"


def test_a_join_link_says_who_invites_with_which_deck_and_clock(web, browser):
    created = httpx.post(f"{web.url}/v1/games", json={
        "game": "crabe-vs-poulpe", "players": 2, "options": {"mode": "asymmetrical"},
        "seats": [{"type": "human", "name": "Ana"}, {"type": "open"}],
        "turn_seconds": 120, "on_timeout": "forfeit"}).json()
    page = open_page(browser, f"{web.url}/play#/join/{created['id']}/1")
    page.wait_for_selector("[data-key=details]")
    details = [text.replace("\u2068", "").replace("\u2069", "")  # names isolated in sentences
               for text in page.locator("[data-key=details] li").all_inner_texts()]
    assert details == [
        "Invited by Ana", "Variant: asymmetrical", "2 min a turn, then the player forfeits",
        "Not rated"]
    assert page.locator("[data-key=join]").is_enabled()
