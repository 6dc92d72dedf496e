"""Every problem type the API answers, read from the errors themselves (ApiError's
subclasses)."""

from service.arena import challenges, series
from service.games import limits, robots, sessions
from service.http import framework_errors, rate_limits
from service.http.errors import ApiError
from service.lobby import seats
from service.matchmaking import queue
from service.replica import shutdown
from service.reviews import worker

# The modules that define errors: a subclass is known once its module has run.
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

