"""Names are what players typed, shown as text and isolated: markup stays text, an unclosed
right-to-left override turns no word around it, and a guest named "You" is not the
viewer."""

import httpx

from tests.web.browsing import create_game, game_id_of, open_page, play_one_turn, wait_for_turn

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE, left unclosed on purpose

# Where each character of the words after a name is drawn: left to right if the name is
# isolated, reversed if its override leaks into the sentence.
DRAWN_AFTER = """(words) => {
  const li = [...document.querySelectorAll('.log li')].find((item) => item.textContent.includes('\u202e'));
  const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(words);
    if (at < 0) continue;
    return [...words].map((_, k) => {
      const range = document.createRange();
      range.setStart(node, at + k);
      range.setEnd(node, at + k + 1);
      return range.getBoundingClientRect().left;
    });
  }
  return null;
}"""


def test_names_with_markup_bidi_controls_and_you_are_shown_as_typed_and_isolated(web, browser):
    host = open_page(browser, f"{web.url}/play")
    create_game(host, "cup-the-crab", players=3, friends=(1, 2), name="<b>Ana</b><script>")
    host.wait_for_selector(".table[data-status=waiting]")
    game_id = game_id_of(host)
    for name in (f"{RLO}Bo", "You"):
        assert httpx.post(f"{web.url}/v1/games/{game_id}/join", json={"name": name}).status_code == 201
    host.wait_for_selector(".table[data-status=active]")
    names = host.locator(".seat .name").all_inner_texts()
    assert names == ["<b>Ana</b><script> (you)", f"{RLO}Bo", "You (seat 3)"]
    assert host.locator(".seat .name b, .log li b, #app script").count() == 0  # text, not markup
    assert host.locator(".seat .name bdi").count() == 3  # each name isolated in its chip
    log = host.locator(".log li").all_inner_texts()
    lefts = host.evaluate(DRAWN_AFTER, " sat down")
    assert lefts == sorted(lefts) and lefts[0] < lefts[-1]  # drawn left to right
    assert any(f"\u2068{RLO}Bo\u2069 sat down" in line for line in log)
    assert any(line.endswith("\u2068You (seat 3)\u2069 sat down") for line in log)  # not the viewer
    assert host.errors == []


def test_a_name_of_24_letters_without_a_break_stays_inside_the_log_and_the_ranking(web, browser):
    page = open_page(browser, f"{web.url}/play")
    create_game(page, "crabe-vs-poulpe", friends=(1,), name="Ana")
    game_id = game_id_of(page)
    guest = httpx.post(f"{web.url}/v1/games/{game_id}/join", json={"name": "W" * 24}).json()
    seat = {"Authorization": f"Bearer {guest['token']}"}
    while (body := httpx.get(f"{web.url}/v1/games/{game_id}", headers=seat).json())["status"] != "over":
        if body["legal_moves"]:  # the guest plays through the API, the host by clicks
            httpx.post(f"{web.url}/v1/games/{game_id}/moves", headers=seat, json={"move": body["legal_moves"][0]})
        elif wait_for_turn(page):
            play_one_turn(page)
    page.wait_for_selector(".end .ranking")
    assert "W" * 24 in page.locator(".ranking").inner_text()
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        spilled = page.evaluate("""() => [...document.querySelectorAll('.log li, .ranking td')]
            .filter((node) => node.scrollWidth > node.clientWidth + 1).map((node) => node.textContent)""")
        assert spilled == []
    assert page.errors == []
