"""Smooth play: Crabe vs Poulpe's moments a player meets by chance, set up exactly (a
seeded deal played through the API to that moment by a fixed rule, then opened in the
browser as seat 0's table, its token in this browser as the start page keeps it), and the
rating chart's landmarks where two AI levels have close ratings."""

import json
from collections.abc import Callable

import httpx

from tests.service.play import auth, create, tokens_of
from tests.web.browsing import open_page

LAPTOP = {"width": 1280, "height": 800}


def drive(url: str, created: dict, pick: Callable, until: Callable) -> dict:
    """Plays pick(seat, body) for whoever is to move until until(seat, body) holds for the
    seat to move (or the game is over); returns seat 0's body then."""
    tokens = tokens_of(created)
    with httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(400):
            seat = client.get(f"/v1/games/{created['id']}").json()["to_move"]
            if not seat:
                break
            body = client.get(f"/v1/games/{created['id']}", headers=auth(tokens[seat[0]])).json()
            if until(seat[0], body):
                break
            moved = client.post(f"/v1/games/{created['id']}/moves", headers=auth(tokens[seat[0]]),
                                json={"move": pick(seat[0], body)})
            assert moved.status_code == 200, moved.text
        return client.get(f"/v1/games/{created['id']}", headers=auth(tokens[0])).json()


def seat_zero_table(browser, url: str, created: dict, **page):
    """Seat 0's table in a browser that holds its token."""
    page = open_page(browser, f"{url}/play", **page)
    entry = {created["id"]: {"token": tokens_of(created)[0], "game": "crabe-vs-poulpe", "at": 1}}
    page.evaluate(f"localStorage.setItem('crab-table.games', {json.dumps(json.dumps(entry))})")
    page.goto(f"{url}/play#/g/{created['id']}")
    page.wait_for_selector(".table[data-version]")
    return page


def test_a_resist_window_with_no_1_in_hand_says_so_and_reveals_nothing_by_opening(web, browser, shots):
    """Seat 1 plays a Draw and Discard (7) while seat 0 holds no 1: the window opens all the
    same (its opening must not tell whether a 1 is held), and says there is none."""
    def pick(seat, body):
        plays = [m for m in body["legal_moves"] if m["type"] == "play"]
        effects = [m for m in plays if m["card"].rsplit("-", 1)[1] in ("4", "7", "8")]
        if seat == 1 and effects:
            return effects[0]
        return next((m for m in body["legal_moves"] if m["type"] == "decline"), body["legal_moves"][0])

    def no_one(seat, body):
        return (seat == 0 and body["view"]["phase"] == "response"
                and not any(m["type"] == "play" for m in body["legal_moves"]))

    with httpx.Client(base_url=web.url) as client:
        created = create(client, "crabe-vs-poulpe", 2, seed=0, options={"mode": "symmetrical", "first_player": 1})
    body = drive(web.url, created, pick, no_one)
    assert no_one(0, body) and body["view"]["pending"]["effect"] == "draw-and-discard"
    page = seat_zero_table(browser, web.url, created)
    said = page.locator(".prompt .say").inner_text()
    assert said.startswith("Player 2 played Octopus 7 (Draw & discard): ")
    assert said.endswith(". You hold no 1 to Resist with: let it happen.")
    assert page.locator(".prompt .word-moves button").all_inner_texts() == ["Let it happen"]
    page.screenshot(path=shots / "crabe-vs-poulpe-no-1.png")


def test_a_search_of_a_long_draw_pile_shows_every_card_in_the_prompt_on_a_laptop(web, browser, shots):
    """Seat 0 plays its Search (10) first, seat 1 lets it happen: seat 0 picks from its
    whole draw pile (22 cards), every one in view in the prompt's box, none clipped."""
    def pick(seat, body):
        search = [m for m in body["legal_moves"] if m.get("card") == "crab-search"]
        return (search or [m for m in body["legal_moves"] if m["type"] == "decline"] or body["legal_moves"])[0]

    with httpx.Client(base_url=web.url) as client:
        created = create(client, "crabe-vs-poulpe", 2, seed=1, options={"mode": "asymmetrical", "first_player": 0})
    body = drive(web.url, created, pick, lambda seat, body: body["view"]["phase"] == "search")
    assert body["view"]["phase"] == "search" and len(body["view"]["draw_pile"]) >= 17
    page = seat_zero_table(browser, web.url, created, width=LAPTOP["width"])
    page.set_viewport_size(LAPTOP)
    # Measured at one instant (the table may be redrawn between two reads).
    prompt, boxes = page.evaluate("""() => {
        const box = (node) => { const r = node.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
        return [box(document.querySelector('.prompt')), [...document.querySelectorAll('.prompt .zone button.card')].map(box)];
    }""")
    assert len(boxes) == len(body["view"]["draw_pile"])
    for box in boxes:
        assert prompt["y"] <= box["y"] and box["y"] + box["height"] <= prompt["y"] + prompt["height"]
        assert prompt["x"] <= box["x"] and box["x"] + box["width"] <= prompt["x"] + prompt["width"]
    assert page.evaluate("() => { const p = document.querySelector('.prompt'); return p.scrollHeight <= p.clientHeight; }")
    page.screenshot(path=shots / "crabe-vs-poulpe-search.png")


def test_the_rating_charts_landmark_labels_stay_apart_when_two_levels_are_close(web, browser):
    """Cup the Crab's 3-5 player pool has levels 3 and 5 two points of rating apart: their
    labels are drawn apart (none overlaps another), each still near its line."""
    page = open_page(browser, f"{web.url}/play")
    page.wait_for_selector("form.setup")
    boxes = page.evaluate("""async () => {
        const { ratingChart } = await import("/play/js/chart.js");
        const landmarks = [["L1", 4], ["L2", 9], ["L3", 24.1], ["L5", 24.9], ["L4", 26.2]]
          .map(([label, value]) => ({ label, value }));
        const chart = ratingChart([{ mu: 25, sigma: 25 / 3 }, { mu: 27, sigma: 6 }], landmarks, true);
        chart.style.width = "320px";
        document.body.append(chart);
        const texts = [...chart.querySelectorAll(".landmark text")].map((t) => t.getBoundingClientRect());
        const lines = [...chart.querySelectorAll(".landmark line")].map((l) => l.getBoundingClientRect().y);
        chart.remove();
        return texts.map((box, i) => ({ top: box.top, bottom: box.bottom, line: lines[i] }));
    }""")
    assert len(boxes) == 5
    ordered = sorted(boxes, key=lambda box: box["top"])
    assert all(a["bottom"] <= b["top"] + 0.5 for a, b in zip(ordered, ordered[1:]))  # no overlap
    assert all(abs((box["top"] + box["bottom"]) / 2 - box["line"]) < 25 for box in boxes)  # near its line
