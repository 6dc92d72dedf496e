"""Names are what players typed, shown as text and isolated: markup stays text, an unclosed
right-to-left override turns no word around it, and a guest named "You" is not the
viewer."""

import httpx

from tests.web.browsing import create_game, game_id_of, open_page

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
