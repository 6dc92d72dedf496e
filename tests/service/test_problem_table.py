"""docs/api.md's table of errors lists every problem type the service can answer, with its
status, and nothing it cannot: a client's author reads the table, not the source."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Where a problem's type is spelled: problem(request, 404, "game-not-found", ...) and
# problem_bytes(429, "rate-limited", ...) (the status may be a variable: http-error), and
# SeatUnavailable("seat-taken", ...) and OverLimit("budget-refused", ...), whose handlers
# answer 409 and 422 with the type they carry.
PROBLEM_CALL = re.compile(r'\bproblem(?:_bytes)?\((?:[a-z]+, )?([0-9]{3}|[a-z_.]+), "([a-z-]+)"')
CARRIED = {"409": re.compile(r'\bSeatUnavailable\("([a-z-]+)"'),
           "422": re.compile(r'\bOverLimit\("([a-z-]+)"')}
TABLE_ROW = re.compile(r"^\| ([0-9][0-9x]{2}(?:, [0-9][0-9x]{2})*) \| (`/problems/[a-z-]+`(?:, `/problems/[a-z-]+`)*) \|")


def answered() -> dict[str, set[str]]:
    """Every problem type in the service's source, with the statuses it is answered with
    ("any" where the status is the framework's)."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "service").rglob("*.py"):
        source = path.read_text()
        for status, slug in PROBLEM_CALL.findall(source):
            found.setdefault(slug, set()).add(status if status.isdigit() else "any")
        for status, pattern in CARRIED.items():
            for slug in pattern.findall(source):
                found.setdefault(slug, set()).add(status)
    return found


def documented() -> dict[str, set[str]]:
    """docs/api.md's table of errors: each type with the statuses its row gives."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text[text.index("## Errors"):]
    section = section[:section.index("\n## ", 1)]
    table: dict[str, set[str]] = {}
    for line in section.splitlines():
        row = TABLE_ROW.match(line)
        if row:
            for slug in re.findall(r"/problems/([a-z-]+)", row[2]):
                table.setdefault(slug, set()).update(row[1].split(", "))
    return table


def test_the_scan_finds_the_problem_types_it_should():
    found = answered()
    assert {"game-not-found", "rate-limited", "seat-taken", "invalid-game", "http-error",
            "not-series-owner", "challenge-closed"} <= set(found)
    assert found["rate-limited"] == {"429"} and found["seat-taken"] == {"409"}
    assert found["budget-refused"] == {"422"}


def test_every_problem_type_the_service_answers_is_in_the_table_with_its_status():
    table = documented()
    for slug, statuses in answered().items():
        assert slug in table, f"/problems/{slug} is missing from docs/api.md's table of errors"
        assert statuses - {"any"} <= table[slug], (slug, statuses, table[slug])


def test_the_table_lists_no_problem_type_the_service_cannot_answer():
    assert set(documented()) <= set(answered())
