"""The profile's rating chart over the dates its games ended, drawn in the page as the
profile draws it, at 1280 and 390 px in English and French: dates under the axis over
weeks and the times of one day, no two labels of the chart over one another, axe."""

import pytest

from tests.web.browsing import open_page
from tests.web.test_after_game import violations_in
from tests.web.test_french import UNTRANSLATED
from tests.web.test_watch_and_react import SIZES

# The chart drawn from a history of rated games spread over weeks (and one over a single
# day), put in a profile's place; every pair of its labels is measured as drawn.
DRAW_CHART = """async ([points, fromStart]) => {
  const { ratingChart } = await import("/play/js/chart.js");
  const { NEWCOMER } = await import("/play/js/pools.js");
  const landmarks = [{ label: "L3", value: 20 }, { label: "L5", value: 21.2 }];
  const article = document.createElement("article");
  article.className = "pool test-chart";
  article.append(ratingChart(fromStart ? [NEWCOMER, ...points] : points, landmarks, fromStart));
  document.querySelector(".start").prepend(article);
  const boxes = [...article.querySelectorAll("text")].map((node) => {
    const r = node.getBoundingClientRect();
    return { text: node.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
  return boxes;
}"""


def history(days: list[float]) -> list[dict]:
    """Rated games ended on these days (of December 2026), rating rising then falling."""
    points = []
    for index, day in enumerate(days):
        mu = 25 + index * 0.8 - (index > len(days) / 2) * index * 0.7
        points.append({"mu": mu, "sigma": max(8.3 - index * 0.6, 2.5),
                       "ended_at": f"2026-12-{int(day):02d}T{int(day % 1 * 24):02d}:30:00+00:00"})
    return points


@pytest.mark.parametrize("locale,width", SIZES)
def test_the_profile_chart_runs_over_dates_with_no_label_over_another(web, browser, axe_source,
                                                                     shots, locale, width):
    page = open_page(browser, f"{web.url}/play#/profile", locale=locale, width=width)
    page.wait_for_selector(".start")
    over_weeks = history([1, 2, 2.5, 5, 9, 9.5, 10, 16, 22, 23, 28])
    in_a_day = history([3.1, 3.2, 3.4, 3.5, 3.7])
    for name, points, from_start in (("weeks", over_weeks, True), ("day", in_a_day, False)):
        boxes = page.evaluate(DRAW_CHART, [points, from_start])
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = a["right"] <= b["left"] or b["right"] <= a["left"] or \
                    a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
                assert apart, f"{a['text']!r} overlaps {b['text']!r}"
        chart = page.locator(".test-chart .rating-chart").first
        texts = chart.locator("text.date").all_text_contents()
        assert len(texts) >= 2
        assert any(("Dec" if locale == "en-GB" else "déc") in text for text in texts), texts
        chart.screenshot(path=shots / f"chart-dates-{name}-{locale[:2]}-{width}.png")
        assert violations_in(page, axe_source, ".test-chart") == []
        page.evaluate("() => document.querySelector('.test-chart').remove()")
    if locale == "fr-FR":
        assert page.evaluate(UNTRANSLATED) == []
    assert page.errors == []
    page.context.close()
