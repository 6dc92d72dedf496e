"""Every problem type the API answers, read from the errors themselves (ApiError's
subclasses): the document's description of each error status and the web client's
sentence for each type are made here.

`python -m service.http.problem_types --js` writes the client's sentences to
service/web/js/problem-sentences.js (tests/service/test_problem_types.py fails while the
committed file differs from what it would write).
"""

import argparse
import json
from pathlib import Path

from service.arena import challenges, series
from service.games import limits, robots, sessions
from service.http import framework_errors, rate_limits
from service.http.errors import ApiError
from service.lobby import reactions, rematches, resignations, seats
from service.matchmaking import queue
from service.replica import shutdown
from service.reviews import worker
from service.tournaments import errors as tournament_errors
from service.webhooks import errors as webhook_errors

# The modules that define errors: a subclass is known once its module has run, and the
# document's descriptions are made while the controllers are defined, before the app
# imports everything.
ERROR_MODULES = (challenges, series, limits, robots, sessions, framework_errors, rate_limits,
                 seats, rematches, resignations, reactions, queue, shutdown, worker,
                 tournament_errors, webhook_errors)

SENTENCES_JS = Path(__file__).resolve().parents[1] / "web" / "js" / "problem-sentences.js"


def errors() -> list[type[ApiError]]:
    """Every error class that names a problem type, in no particular order. Each has its
    status too, but HttpError, which answers with the framework's of the moment."""
    found: list[type[ApiError]] = []
    pending = list(ApiError.__subclasses__())
    while pending:
        error = pending.pop()
        pending.extend(error.__subclasses__())
        if hasattr(error, "type"):
            found.append(error)
    return found


def description(status: int) -> str:
    """The document's description of `status`: its errors' fragments, in their order.
    Only the class that says a fragment counts (a subclass inherits its words, not its
    place)."""
    said = [error for error in errors()
            if getattr(error, "status", None) == status and "when" in vars(error)]
    return "".join(error.when for error in sorted(said, key=lambda error: error.when_order))


def sentences() -> dict[str, str]:
    """The client's sentence for each problem type that has one, by type."""
    return {error.type: error.sentence for error in sorted(errors(), key=lambda e: e.type)
            if error.sentence is not None}


def sentences_js() -> str:
    lines = [f"  {json.dumps(slug)}: {json.dumps(sentence, ensure_ascii=False)},"
             for slug, sentence in sentences().items()]
    return "\n".join([
        "// Made by `python -m service.http.problem_types --js` from the service's errors",
        "// (their `sentence`): do not edit. Each problem type of the API as the client says",
        "// it, in English; french.js translates each sentence like any other (i18n.js).",
        "export const PROBLEM_SENTENCES = {", *lines, "};", ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--js", action="store_true", required=True,
                        help=f"write the client's sentences to {SENTENCES_JS}")
    parser.parse_args()
    SENTENCES_JS.write_text(sentences_js())
    print(SENTENCES_JS)


if __name__ == "__main__":
    main()
