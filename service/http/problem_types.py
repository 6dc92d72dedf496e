"""Every problem type the API answers, read from the errors themselves (ApiError's
subclasses): the document's description of each error status is made here."""

from service.arena import challenges, series
from service.games import limits, robots, sessions
from service.http import framework_errors, rate_limits
from service.http.errors import ApiError
from service.lobby import seats
from service.matchmaking import queue
from service.replica import shutdown
from service.reviews import worker

# The modules that define errors: a subclass is known once its module has run, and the
# document's descriptions are made while the controllers are defined, before the app
# imports everything.
ERROR_MODULES = (challenges, series, limits, robots, sessions, framework_errors, rate_limits,
                 seats, queue, shutdown, worker)


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

