"""docs/api.md's table of errors lists every problem type the service can answer, with its
status, and nothing it cannot: a client's author reads the table, not the source. What
the service answers is what its errors say (service/http/problem_types.py)."""

import re
from pathlib import Path

from service.http.problem_types import errors

ROOT = Path(__file__).resolve().parents[2]
TABLE_ROW = re.compile(r"^\| ([0-9][0-9x]{2}(?:, [0-9][0-9x]{2})*) \| (`/problems/[a-z-]+`(?:, `/problems/[a-z-]+`)*) \|")


def answered() -> dict[str, set[str]]:
    """Every problem type the service answers, with the statuses it is answered with
    ("any" where the status is the framework's: HttpError's)."""
    found: dict[str, set[str]] = {}
    for error in errors():
        found.setdefault(error.type, set()).add(str(getattr(error, "status", "any")))
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


def test_the_errors_name_the_problem_types_of_every_layer():
    found = answered()
    assert {"game-not-found", "rate-limited", "seat-taken", "invalid-game", "http-error",
            "not-series-owner", "challenge-closed", "malformed-request", "internal-error",
            "store-unavailable"} <= set(found)
    assert found["rate-limited"] == {"429"} and found["seat-taken"] == {"409"}
    assert found["budget-refused"] == {"422"} and found["http-error"] == {"any"}


def test_every_problem_type_the_service_answers_is_in_the_table_with_its_status():
    table = documented()
    for slug, statuses in answered().items():
        assert slug in table, f"/problems/{slug} is missing from docs/api.md's table of errors"
        assert statuses - {"any"} <= table[slug], (slug, statuses, table[slug])


def test_the_table_lists_no_problem_type_the_service_cannot_answer():
    assert set(documented()) <= set(answered())
