"""The tournaments' errors (docs/api.md, "Errors")."""

from service.http.errors import ApiError


class TournamentNotFound(ApiError):
    """Raised with the tournament's id, which the path says."""
    status = 404
    type = "tournament-not-found"
    when = ", no tournament has this id (`tournament-not-found`)"
    when_order = 70

    def detail(self) -> str:
        return "no tournament has this id"


class EntrantNotFound(ApiError):
    """Leaving a tournament one has not entered."""
    status = 404
    type = "entrant-not-found"
    when = ", or has no such entrant (`entrant-not-found`)"
    when_order = 71


class NotTournamentOwner(ApiError):
    """Starting or cancelling a tournament, or entering an AI level, asked by a player
    other than the one who made it."""
    status = 403
    type = "not-tournament-owner"
    when = (", or start, cancel or enter AI levels in another player's tournament"
            " (`not-tournament-owner`)")
    when_order = 40


class ForbiddenEntrant(ApiError):
    """Entering (or withdrawing) another player than the key's own."""
    status = 403
    type = "forbidden-entrant"
    when = (", or enter or withdraw a player other than the key's own"
            " (`forbidden-entrant`)")
    when_order = 50


class EntryClosed(ApiError):
    """Joining or leaving a tournament whose entry window has closed."""
    status = 409
    type = "entry-closed"
    when = "; the tournament no longer takes entries or withdrawals: it started (`entry-closed`)"
    when_order = 160


class TournamentFull(ApiError):
    """A tournament with its most entrants already."""
    status = 409
    type = "tournament-full"
    when = "; the tournament has its most entrants (`tournament-full`)"
    when_order = 170


class TournamentClosed(ApiError):
    """Starting or cancelling a tournament that finished or was cancelled."""
    status = 409
    type = "tournament-closed"
    when = "; the tournament is over or cancelled (`tournament-closed`)"
    when_order = 180


class InvalidTournament(ApiError):
    """A format the schema cannot refuse: rounds asked of a round robin (its rounds
    follow from its entrants), or more Swiss rounds than a field of its size can take."""
    status = 422
    type = "invalid-tournament"
    when = ", a tournament's format its parameters do not fit (`invalid-tournament`)"
    when_order = 25
