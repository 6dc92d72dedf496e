"""OpenAPI links: from every operation that makes something to what it makes usable, so
that a client (or a generic stateful fuzzer) that follows only the document gets from a
new player, game, ticket, challenge, series, tournament or review to real reads, moves and answers.

A credential travels in Authorization: a seat's token or a player's key from the body
that gave it (`Bearer {$response.body#/token}`), then from the request that carried it
(`$request.header.Authorization`) to the next request of the same seat or player.
"""

from typing import Any

import core

REF_GAME, GAMES = "/v1/games/{game_id}", "/v1/games"
ME, PLAYER = "/v1/players/me", "/v1/players/{player_id}"
TICKET, CHALLENGE, SERIES = ("/v1/queue/{ticket_id}", "/v1/challenges/{challenge_id}",
                             "/v1/series/{series_id}")
TOURNAMENT = "/v1/tournaments/{tournament_id}"
# Every game has at least these seats: the links from a new game to its seats' reads.
EVERY_GAMES_SEATS = min(min(counts) for counts in core.PLAYERS.values())
SAME_CALLER = {"header.Authorization": "$request.header.Authorization"}


class Linker:
    """Writes links into the document's responses, each naming its target operation."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.paths = document["paths"]

    def link(self, path: str, method: str, description: str, parameters: dict[str, str],
             body: dict[str, Any] | None = None) -> dict[str, Any]:
        found: dict[str, Any] = {"operationId": self.paths[path][method]["operationId"],
                                 "description": description, "parameters": parameters}
        if body is not None:
            # The body as given: schemathesis would otherwise merge generated fields into
            # it, and a legal move with an extra field is no longer legal.
            found["requestBody"] = body
            found["x-schemathesis"] = {"merge_body": False}
        return found

    def add(self, path: str, method: str, status: str, links: dict[str, Any]) -> None:
        response = self.paths[path][method]["responses"][status]
        response.setdefault("links", {}).update(links)


def as_seat(token: str, game_id: str) -> dict[str, str]:
    """A seat's requests: the game's id and the seat's token, from where they were given."""
    return {"path.game_id": game_id, "header.Authorization": f"Bearer {{{token}}}"}


def seat_links(linker: Linker, seat: dict[str, str], prefix: str) -> dict[str, Any]:
    """What a seat of a game just made can do first: read it, its moves, its changes."""
    return {f"{prefix}LegalMoves": linker.link(f"{REF_GAME}/legal-moves", "get",
                                               "the seat's legal moves", seat),
            f"{prefix}Read": linker.link(REF_GAME, "get", "the game as the seat sees it", seat)}


def game_links(linker: Linker) -> None:
    """A new game to its seats' reads and moves, a join, leaving; moves to what follows."""
    new_game = {"path.game_id": "$response.body#/id"}
    created = {"JoinOpenSeat": linker.link(f"{REF_GAME}/join", "post",
                                           "take an open seat of the game", new_game),
               "LeaveAsSeat0": linker.link(f"{REF_GAME}/leave", "post", "seat 0 leaves while"
                                           " the game waits for players",
                                           as_seat("$response.body#/seats/0/token",
                                                   "$response.body#/id")),
               "ExportIt": linker.link(f"{GAMES}/export", "get", "its record, once archived",
                                       {"query.id": "$response.body#/id"})}
    for seat in range(EVERY_GAMES_SEATS):
        created[f"LegalMovesAsSeat{seat}"] = linker.link(
            f"{REF_GAME}/legal-moves", "get", f"seat {seat}'s moves",
            as_seat(f"$response.body#/seats/{seat}/token", "$response.body#/id"))
    created["ReadAsSeat0"] = linker.link(REF_GAME, "get", "the game as seat 0 sees it",
                                         as_seat("$response.body#/seats/0/token",
                                                 "$response.body#/id"))
    created["EventsAsSeat0"] = linker.link(f"{REF_GAME}/events", "get", "the game's changes"
                                           " as seat 0 sees them",
                                           as_seat("$response.body#/seats/0/token",
                                                   "$response.body#/id"))
    # No link from the waiting list: a page may be empty, and a link must resolve on every
    # answer of its status (a generic client reports one that does not as a failure).
    linker.add(GAMES, "post", "201", created)

    joined = as_seat("$response.body#/token", "$request.path.game_id")
    linker.add(f"{REF_GAME}/join", "post", "201", {
        "LegalMovesAsJoinedSeat": linker.link(f"{REF_GAME}/legal-moves", "get",
                                              "the moves of the seat just taken", joined),
        "LeaveAsJoinedSeat": linker.link(f"{REF_GAME}/leave", "post", "free the seat again",
                                         joined)})
    move_links(linker)


def move_links(linker: Linker) -> None:
    same_seat = {"path.game_id": "$request.path.game_id", **SAME_CALLER}
    same_game = {"path.game_id": "$request.path.game_id"}
    play = linker.link(f"{REF_GAME}/moves", "post", "the seat plays its first legal move",
                       same_seat, {"move": "$response.body#/legal_moves/0",
                                   "expected_version": "$response.body#/version"})
    linker.add(f"{REF_GAME}/legal-moves", "get", "200", {"PlayFirstLegalMove": play})
    linker.add(f"{REF_GAME}/moves", "post", "200", {
        "PlayNextLegalMove": play,
        "LegalMovesAfter": linker.link(f"{REF_GAME}/legal-moves", "get",
                                       "the seat's moves now", same_seat),
        "SuggestNext": linker.link(f"{REF_GAME}/suggest", "post", "the AI's advice to the"
                                   " seat", same_seat),
        "HistoryAfter": linker.link(f"{REF_GAME}/history", "get", "the log as the seat sees"
                                    " it", same_seat),
        "RematchAfter": linker.link(f"{REF_GAME}/rematch", "post", "the next game, once this"
                                    " one is over", same_seat),
        "ResignAfter": linker.link(f"{REF_GAME}/resign", "post", "the seat resigns",
                                   same_seat),
        "AtTheTable": linker.link(f"{REF_GAME}/presence", "post", "the seat says it is at"
                                  " the table; who is there", same_seat, {"here": True}),
        "ReactAfter": linker.link(f"{REF_GAME}/reactions", "post", "the seat says a fixed"
                                  " phrase to the table", same_seat, {"phrase": "well-played"}),
        "ReplayAfter": linker.link(f"{REF_GAME}/replay", "get", "every version with every"
                                   " card, once the game is over", same_game),
        "ReviewAfter": linker.link(f"{REF_GAME}/reviews", "post", "a review of the seat,"
                                   " once the game is over", same_game,
                                   {"seat": "$response.body#/you"})})
    linker.add(f"{REF_GAME}/rematch", "post", "202", {
        "DeclineRematch": linker.link(f"{REF_GAME}/rematch/decline", "post", "the offer"
                                      " withdrawn (the offering seat declines it)",
                                      same_seat)})
    linker.add(f"{REF_GAME}/rematch", "post", "201", {
        "LegalMovesInRematch": linker.link(f"{REF_GAME}/legal-moves", "get", "the seat's"
                                           " moves in the next game (its token carries"
                                           " over)", {"path.game_id": "$response.body#/id",
                                                      **SAME_CALLER})})
    linker.add(f"{REF_GAME}/reviews", "post", "202", {
        "ReadReview": linker.link(f"{REF_GAME}/reviews/{{seat}}", "get", "the review as it"
                                  " goes", {"path.game_id": "$request.path.game_id",
                                            "path.seat": "$response.body#/seat"})})


def player_links(linker: Linker, arena: dict[str, Any] | None) -> None:
    """A new player's key to every route that takes one, its id to its pages; with arena
    (a game and AI level the server plays), bodies that start a game at once: a queue
    ticket filled by the AI, a challenge and a series of AI levels."""
    key = {"header.Authorization": "Bearer {$response.body#/key}"}
    mine = {"path.player_id": "$response.body#/id"}
    links = {
        "ReadMe": linker.link(ME, "get", "the player, by its key", key),
        "RenameMe": linker.link(ME, "patch", "rename the player", key),
        "MyEvents": linker.link(f"{ME}/events", "get", "the player's events", key),
        "Queue": linker.link("/v1/queue", "post", "a ticket for a rated game", key),
        "Challenge": linker.link("/v1/challenges", "post", "offer a game", key),
        "StartSeries": linker.link("/v1/series", "post", "start a series", key),
        "MakeTournament": linker.link("/v1/tournaments", "post", "make a tournament", key),
        "SetMyWebhook": linker.link(f"{ME}/webhook", "put", "set the bot's webhook", key),
        "ReadPlayer": linker.link(PLAYER, "get", "the player's profile", mine),
        "PlayersGames": linker.link(f"{PLAYER}/games", "get", "the player's games", mine)}
    if arena is not None:
        game, players, level = arena["game"], arena["players"], f"ai-{arena['level']}"
        links["QueueFilledByAi"] = linker.link(
            "/v1/queue", "post", "a ticket the AI fills at once", key,
            {"game": game, "players": players, "fill_with_ai_after": 0})
        links["ChallengeAi"] = linker.link(
            "/v1/challenges", "post", "a game against AI levels, started at once", key,
            {"game": game, "opponents": [level] * (players - 1)})
        links["SeriesOfAi"] = linker.link(
            "/v1/series", "post", "a short series of AI levels", key,
            {"game": game, "players": players, "contestants": [level] * players,
             "deals": 1, "at_once": 1})
    linker.add("/v1/players", "post", "201", links)
    # What a webhook once set makes usable (a player has none before: 404).
    linker.add(f"{ME}/webhook", "put", "200", {
        "MyWebhook": linker.link(f"{ME}/webhook", "get", "the bot's webhook", SAME_CALLER),
        "RemoveMyWebhook": linker.link(f"{ME}/webhook", "delete", "remove the bot's webhook",
                                       SAME_CALLER),
        "RotateMyWebhookSecret": linker.link(f"{ME}/webhook/secret", "post",
                                             "a new signing secret", SAME_CALLER)})
    linker.add(ME, "get", "200", {"MyGames": linker.link(
        f"{PLAYER}/games", "get", "the player's games", mine)})
    linker.add("/v1/leaderboards", "get", "200", {"FirstPool": linker.link(
        "/v1/leaderboards/{pool}", "get", "a pool's leaderboard",
        {"path.pool": "$response.body#/pools/0/pool"})})


def arena_links(linker: Linker) -> None:
    """A ticket, a challenge or a series to its reads and answers (by the same key), and
    a seated ticket or accepted challenge to its game, as its seat."""
    seated = as_seat("$response.body#/token", "$response.body#/game_id")
    ticket = {"path.ticket_id": "$response.body#/id", **SAME_CALLER}
    ticket_links = {
        "ReadTicket": linker.link(TICKET, "get", "the ticket", ticket),
        "TicketEvents": linker.link(f"{TICKET}/events", "get", "the ticket's changes", ticket),
        "CancelTicket": linker.link(TICKET, "delete", "cancel the ticket if it waits", ticket),
        **seat_links(linker, seated, "Seated")}
    linker.add("/v1/queue", "post", "201", ticket_links)
    linker.add(TICKET, "get", "200", seat_links(linker, seated, "Seated"))

    challenge = {"path.challenge_id": "$response.body#/id", **SAME_CALLER}
    linker.add("/v1/challenges", "post", "201", {
        "ReadChallenge": linker.link(CHALLENGE, "get", "the challenge", challenge),
        "CancelChallenge": linker.link(CHALLENGE, "delete", "cancel it while pending",
                                       challenge),
        "AcceptChallenge": linker.link(f"{CHALLENGE}/accept", "post", "accept it (a"
                                       " challenged player)", challenge),
        "DeclineChallenge": linker.link(f"{CHALLENGE}/decline", "post", "decline it (a"
                                        " challenged player)", challenge),
        **seat_links(linker, seated, "Accepted")})
    linker.add(CHALLENGE, "get", "200", seat_links(linker, seated, "Accepted"))

    series = {"path.series_id": "$response.body#/id"}
    linker.add("/v1/series", "post", "201", {
        "ReadSeries": linker.link(SERIES, "get", "the series so far", series),
        "SeriesGames": linker.link(f"{SERIES}/games", "get", "its games", series),
        "StopSeries": linker.link(SERIES, "delete", "stop it (its owner)",
                                  {**series, **SAME_CALLER}),
        # Game i of a series is `<series id>-<i>`, and game 0 is made with the series (a
        # page of its games may be empty, so no link reads an id from one).
        "FirstSeriesGame": linker.link(REF_GAME, "get", "the series' first game",
                                       {"path.game_id": "{$response.body#/id}-0"})})


def tournament_links(linker: Linker) -> None:
    """A new tournament to its reads, and to what its owner (the same key) may do."""
    made = {"path.tournament_id": "$response.body#/id"}
    owner = {**made, **SAME_CALLER}
    linker.add("/v1/tournaments", "post", "201", {
        "ReadTournament": linker.link(TOURNAMENT, "get", "the tournament and its standings",
                                      made),
        "TournamentGames": linker.link(f"{TOURNAMENT}/games", "get", "its games", made),
        "TournamentEvents": linker.link(f"{TOURNAMENT}/events", "get", "its event stream",
                                        made),
        "EnterOwner": linker.link(f"{TOURNAMENT}/entrants/{{entrant_id}}", "put",
                                  "enter the key's own player",
                                  {**owner, "path.entrant_id": "$response.body#/owner"}),
        "StartTournament": linker.link(f"{TOURNAMENT}/start", "post", "close the entry"
                                       " window now (its owner)", owner),
        "CancelTournament": linker.link(TOURNAMENT, "delete", "cancel it (its owner)", owner)})
    entrant = f"{TOURNAMENT}/entrants/{{entrant_id}}"
    linker.add(entrant, "put", "200", {
        "Withdraw": linker.link(entrant, "delete", "withdraw the entrant again (before the"
                                " start)", {"path.tournament_id": "$request.path.tournament_id",
                                            "path.entrant_id": "$request.path.entrant_id",
                                            **SAME_CALLER})})


def links(document: dict[str, Any], arena: dict[str, Any] | None) -> None:
    linker = Linker(document)
    game_links(linker)
    player_links(linker, arena)
    arena_links(linker)
    tournament_links(linker)
