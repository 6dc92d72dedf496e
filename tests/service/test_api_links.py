"""A client that knows only the document plays whole games by following its links.

It is told the operation that creates a game and a body for it; every later request is a
link of the response before: its operation, its parameters and body as the link's runtime
expressions give them (`$response.body#/...`, `$request.path...`, `$request.header...`),
the token included. Nothing here names a path, a header or a field of the API.
"""

import re
import time
from typing import Any

import httpx
import pytest

EXPRESSION = re.compile(r"\$(response\.body#[^}]*|request\.(path|header)\.[A-Za-z_-]+)")


class Step:
    """One request made and its response, as runtime expressions read them."""

    def __init__(self, path: dict[str, str], headers: dict[str, str], response: httpx.Response):
        self.path, self.headers, self.response = path, headers, response

    def value(self, expression: str) -> Any:
        if expression.startswith("$response.body#"):
            node: Any = self.response.json()
            for part in expression.split("#", 1)[1].split("/")[1:]:
                node = node[int(part)] if isinstance(node, list) else node[part]
            return node
        _, where, name = expression.split(".", 2)
        found = self.path if where == "path" else self.headers
        return found[name]

    def evaluate(self, template: Any) -> Any:
        """A link's value: a whole expression, or a string with `{expressions}` in it."""
        if isinstance(template, dict):
            return {key: self.evaluate(value) for key, value in template.items()}
        if not isinstance(template, str) or "$" not in template:
            return template
        if EXPRESSION.fullmatch(template):
            return self.value(template)
        return re.sub(r"\{(\$[^}]+)\}", lambda m: str(self.value(m[1])), template)

    def resolves(self, template: Any) -> bool:
        try:
            self.evaluate(template)
            return True
        except (KeyError, IndexError):
            return False


class LinkClient:
    def __init__(self, http: httpx.Client, document: dict[str, Any]) -> None:
        self.http = http
        self.operations = {operation["operationId"]: (method, path, operation)
                           for path, methods in document["paths"].items()
                           for method, operation in methods.items()}
        self.by_path = {(method, path): operation for _, (method, path, operation)
                        in self.operations.items()}

    def send(self, method: str, template: str, path: dict[str, str],
             headers: dict[str, str], body: Any = None) -> Step:
        url = template.format(**path)
        response = self.http.request(method.upper(), url, headers=headers,
                                     json=body if method == "post" else None)
        return Step(path, headers, response)

    def links(self, method: str, path: str, step: Step) -> dict[str, Any]:
        responses = self.by_path[method, path]["responses"]
        return responses.get(str(step.response.status_code), {}).get("links", {})

    def follow(self, source: tuple[str, str], step: Step, name: str) -> tuple[tuple[str, str], Step] | None:
        """The request a link of step's response names, made; None if it does not resolve."""
        link = self.links(*source, step)[name]
        body = link.get("requestBody", {})
        if not all(step.resolves(value) for value in (*link["parameters"].values(), body)):
            return None
        method, path, _ = self.operations[link["operationId"]]
        values = {key: step.evaluate(value) for key, value in link["parameters"].items()}
        path_values = {k.split(".", 1)[1]: v for k, v in values.items() if k.startswith("path.")}
        headers = {k.split(".", 1)[1]: v for k, v in values.items() if k.startswith("header.")}
        return (method, path), self.send(method, path, path_values, headers,
                                         step.evaluate(body) if body else None)


PLAY = {"legal-moves": "PlayFirstLegalMove", "moves": "PlayNextLegalMove"}


def play_by_links(client: LinkClient, create: tuple[str, str], body: dict[str, Any]) -> list[int]:
    """Plays a 2-seat game to its end through the links only: each seat plays the first of
    the legal moves its last response lists, and asks for its moves again (the new game's
    link for that seat) when it lists none or the game moved on. The statuses of the
    moves sent."""
    created = client.send(*create, {}, {}, body)
    assert created.response.status_code == 201, created.response.text
    again = [f"LegalMovesAsSeat{seat}" for seat in (0, 1)]
    seats = [client.follow(create, created, name) for name in again]
    statuses: list[int] = []
    for _ in range(2000):
        moved = False
        for index, chain in enumerate(seats):
            assert chain is not None and chain[1].response.status_code == 200
            played = client.follow(*chain, PLAY[chain[0][1].rsplit("/", 1)[1]])
            if played is not None:
                statuses.append(played[1].response.status_code)
                # 409: the other seat moved since this one read its moves (the link sends
                # the version read), so it reads them again, as any client would
                assert played[1].response.status_code in (200, 409), played[1].response.text
                moved = True
                if played[1].response.status_code == 409:
                    played = None
            seats[index] = played or client.follow(create, created, again[index])
        if not moved:
            read = client.follow(create, created, "ReadAsSeat0")
            assert read is not None
            if read[1].response.json()["status"] == "over":
                return statuses
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["cup-the-crab", "crabe-vs-poulpe"])
def test_a_client_following_only_the_documents_links_plays_a_whole_game(api, client, game):
    document = client.get("/schema/openapi.json").json()
    links = LinkClient(client, document)
    create = next((method, path) for method, path, operation in links.operations.values()
                  if "LegalMovesAsSeat0" in operation["responses"].get("201", {}).get(
                      "links", {}))
    statuses = play_by_links(links, create, {"game": game, "players": 2})
    assert statuses.count(200) > 10 and set(statuses) <= {200, 409}


def followed(client: LinkClient, chain: tuple[tuple[str, str], Step], name: str,
             status: int) -> tuple[tuple[str, str], Step]:
    """The link followed, answering status."""
    found = client.follow(*chain, name)
    assert found is not None, f"{name} does not resolve"
    assert found[1].response.status_code == status, (name, found[1].response.text)
    return found


def play_seat_to_the_end(client: LinkClient, seated: tuple[tuple[str, str], Step],
                         read: str) -> tuple[tuple[str, str], Step]:
    """One seat against the server's AI, through the links only: the seat's moves (the
    link `read` of seated), its first legal move, again until the game is over. The last
    move's step."""
    last = None
    for _ in range(2000):
        moves = followed(client, seated, read, 200)
        chain = client.follow(*moves, "PlayFirstLegalMove")
        while chain is not None and chain[1].response.status_code == 200:
            last = chain
            if chain[1].response.json()["status"] == "over":
                return last
            chain = client.follow(*chain, "PlayNextLegalMove")
        if chain is None and last is not None and followed(
                client, seated, read.replace("LegalMoves", "Read"), 200)[1].response.json()[
                    "status"] == "over":
            return last
        time.sleep(0.02)  # the AI is to move
    raise AssertionError("the game did not end")


def test_a_new_players_links_reach_its_routes_and_a_whole_game_against_the_ai(client):
    """Told only how to make a player, a client reaches by links: the player's pages, a
    challenge of an AI level played to its end (then its replay, a review, a rematch), a
    ticket the AI fills, and a series of AI levels with its games."""
    links = LinkClient(client, client.get("/schema/openapi.json").json())
    create = next((method, path) for method, path, operation in links.operations.values()
                  if "ChallengeAi" in operation["responses"].get("201", {}).get("links", {}))
    player = (create, links.send(*create, {}, {}, {"name": "Linked", "kind": "bot"}))
    assert player[1].response.status_code == 201, player[1].response.text
    for name in ("ReadMe", "ReadPlayer", "PlayersGames"):
        followed(links, player, name, 200)
    followed(links, followed(links, player, "ReadMe", 200), "MyGames", 200)

    challenge = followed(links, player, "ChallengeAi", 201)
    followed(links, challenge, "ReadChallenge", 200)
    last = play_seat_to_the_end(links, challenge, "AcceptedLegalMoves")
    followed(links, last, "ReplayAfter", 200)
    followed(links, followed(links, last, "ReviewAfter", 202), "ReadReview", 200)
    followed(links, followed(links, last, "RematchAfter", 201), "LegalMovesInRematch", 200)

    ticket = followed(links, player, "QueueFilledByAi", 201)
    assert ticket[1].response.json()["status"] == "seated", ticket[1].response.text
    for name in ("ReadTicket", "TicketEvents", "SeatedLegalMoves", "SeatedRead",
                 "CancelTicket"):
        followed(links, ticket, name, 200)

    series = followed(links, player, "SeriesOfAi", 201)
    followed(links, series, "SeriesGames", 200)
    followed(links, series, "FirstSeriesGame", 200)
    followed(links, series, "ReadSeries", 200)
    followed(links, series, "StopSeries", 200)
