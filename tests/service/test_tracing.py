"""Traces, as an operator's collector receives them over OTLP/HTTP: off by default; when
the OTEL_* variables turn them on, a move is one trace from the request through the
store's scripts, a view, an AI seat's turn and the archive's batch carry the game's id,
and no span shows a token, a query string or the game's hidden state."""

import random
import secrets
from collections.abc import Iterator

import httpx
import pytest

from service.archive.outbox import Entry
from service.replica.tracing import wanted
from service.store.notices import notice, parsed_notice
from tests.service.otlp import Receiver, Span
from tests.service.play import auth, create, tokens_of
from tests.service.servers import PrivateRedis, Server, server, wait_until

SERVER_KIND = 2  # OTLP's SPAN_KIND_SERVER


@pytest.fixture(scope="module")
def redis() -> Iterator[PrivateRedis]:
    with PrivateRedis() as running:
        yield running


def traced_env(redis: PrivateRedis, receiver: Receiver, name: str) -> dict[str, str]:
    return {"REDIS_URL": redis.url, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
            "OTEL_SERVICE_NAME": name, "OTEL_BSP_SCHEDULE_DELAY": "100"}


@pytest.fixture(scope="module")
def traced(redis) -> Iterator[tuple[Server, Receiver]]:
    with Receiver() as receiver, server(traced_env(redis, receiver, "crab-test")) as api:
        yield api, receiver


def spans_of(receiver: Receiver, trace_id: str) -> list[Span]:
    return [span for span in receiver.spans() if span.trace_id == trace_id]


def test_tracing_is_off_unless_the_otel_variables_ask_for_it():
    assert wanted({}) is None
    assert wanted({"OTEL_SERVICE_NAME": "crab"}) is None
    assert wanted({"OTEL_TRACES_EXPORTER": "otlp"}) == "otlp"
    assert wanted({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}) == "otlp"
    assert wanted({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}) == "otlp"
    assert wanted({"OTEL_TRACES_EXPORTER": "console"}) == "console"
    assert wanted({"OTEL_TRACES_EXPORTER": "none",
                   "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}) is None
    assert wanted({"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}) is None


def test_a_move_is_one_trace_from_the_callers_context_through_the_store_scripts(traced):
    api, receiver = traced
    with httpx.Client(base_url=api.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2)
        token = tokens_of(game)[0]
        view = client.get(f"/v1/games/{game['id']}", headers=auth(token)).json()
        trace_id, parent = secrets.token_hex(16), secrets.token_hex(8)
        moved = client.post(f"/v1/games/{game['id']}/moves",
                            json={"move": view["legal_moves"][0]},
                            headers={**auth(token), "traceparent": f"00-{trace_id}-{parent}-01"})
        assert moved.status_code == 200, moved.text

    def complete() -> bool:
        names = {span.name for span in spans_of(receiver, trace_id)}
        return {"POST /v1/games/{game_id}/moves", "game.move", "store.read",
                "store.script"} <= names
    wait_until(complete, seconds=15, what="the move's spans exported")
    spans = spans_of(receiver, trace_id)
    [request] = [span for span in spans if span.kind == SERVER_KIND]
    assert request.name == "POST /v1/games/{game_id}/moves" and request.parent_id == parent
    assert request.attributes["http.route"] == "/v1/games/{game_id}/moves"
    [move] = [span for span in spans if span.name == "game.move"]
    assert move.parent_id == request.span_id and move.attributes["crab.game_id"] == game["id"]
    store = [(span.name, span.attributes.get("crab.script")) for span in spans
             if span.parent_id == move.span_id]
    assert ("store.read", None) in store and ("store.script", "commit") in store, store


def test_a_view_an_ai_turn_and_the_archive_batch_carry_the_games_id(traced):
    api, receiver = traced
    rng = random.Random(3)
    with httpx.Client(base_url=api.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2, seats=[{"type": "human"},
                                                        {"type": "ai", "level": 1}])
        token = tokens_of(game)[0]
        while (view := client.get(f"/v1/games/{game['id']}",
                                  headers=auth(token)).json())["status"] != "over":
            assert view["legal_moves"], view  # the AI played its turns inside the move
            assert client.post(f"/v1/games/{game['id']}/moves", headers=auth(token), json={
                "move": rng.choice(view["legal_moves"])}).status_code == 200

    def named(name: str) -> list[Span]:
        return [span for span in receiver.spans() if span.name == name
                and (span.attributes.get("crab.game_id") == game["id"]
                     or game["id"] in span.attributes.get("crab.game_ids", []))]
    wait_until(lambda: named("archive.batch"), seconds=15, what="the archive's batch")
    assert named("game.view") and named("game.move")
    turns = named("ai.turn")
    assert turns and all(turn.attributes["crab.seat"] == 1 for turn in turns)
    assert {turn.attributes["crab.level"] for turn in turns} == {1}
    [batch] = named("archive.batch")
    sql = [span for span in receiver.spans()
           if span.trace_id == batch.trace_id and "db.statement" in span.attributes]
    assert sql, "the batch's SQL statements are spans of its trace"


def test_a_move_is_one_trace_across_replicas_to_the_fan_out_and_the_archive(traced, redis):
    api, receiver = traced
    rng = random.Random(5)
    traces: list[str] = []

    def move(client: httpx.Client, game_id: str, token: str, legal: list) -> None:
        traces.append(trace_id := secrets.token_hex(16))
        assert client.post(f"/v1/games/{game_id}/moves", json={"move": rng.choice(legal)},
                           headers={**auth(token), "traceparent":
                                    f"00-{trace_id}-{secrets.token_hex(8)}-01"}
                           ).status_code == 200

    def span(trace_id: str, name: str) -> Span | None:
        return next((span for span in spans_of(receiver, trace_id) if span.name == name), None)

    with server(traced_env(redis, receiver, "crab-other")) as other, \
            httpx.Client(base_url=api.url, timeout=30) as client, \
            httpx.Client(base_url=other.url, timeout=30) as watcher:
        game = create(client, "cup-the-crab", 2)
        tokens = tokens_of(game)
        with watcher.stream("GET", f"/v1/games/{game['id']}/events",
                            headers=auth(tokens[1])) as stream:
            assert stream.status_code == 200
            lines = stream.iter_lines()  # (kept: a generator closed closes the stream)
            next(line for line in lines if line.startswith("data:"))
            view = client.get(f"/v1/games/{game['id']}", headers=auth(tokens[0])).json()
            move(client, game["id"], tokens[0], view["legal_moves"])
            # the other replica's fan-out of that move is a child of the move's span
            wait_until(lambda: span(traces[0], "events.fan_out") and span(traces[0], "game.move"),
                       seconds=15, what="the other replica's fan-out in the move's trace")
            fan_out, moved = span(traces[0], "events.fan_out"), span(traces[0], "game.move")
            assert fan_out.service == "crab-other" and moved.service == "crab-test"
            assert fan_out.parent_id == moved.span_id
            assert fan_out.attributes["crab.game_id"] == game["id"]
        while (views := [client.get(f"/v1/games/{game['id']}", headers=auth(token)).json()
                         for token in tokens.values()])[0]["status"] != "over":
            seat = next(seat for seat, view in enumerate(views) if view["legal_moves"])
            move(client, game["id"], tokens[seat], views[seat]["legal_moves"])
    # the game's archive record is in the trace of the move that ended it, linked to
    # its batch, which links back to that move
    wait_until(lambda: span(traces[-1], "archive.game") and span(traces[-1], "game.move"),
               seconds=15, what="the archive's record in the ending move's trace")
    record, ending = span(traces[-1], "archive.game"), span(traces[-1], "game.move")
    assert record.parent_id == ending.span_id
    assert record.attributes["crab.game_id"] == game["id"]
    [batch] = [span for span in receiver.spans() if span.name == "archive.batch"
               and game["id"] in span.attributes.get("crab.game_ids", [])]
    assert (batch.trace_id, batch.span_id) in record.links
    assert (ending.trace_id, ending.span_id) in batch.links


def test_notices_and_outbox_entries_carry_a_trace_only_while_traced_and_read_any_fields():
    # untraced, a notice and an entry are what the previous release wrote and reads
    assert notice(4, 12.5, "") == "4 12.500000"
    assert parsed_notice("4 12.500000") == (4, 12.5, "")
    assert Entry.parsed("b", "g1 7 1000").origin == ""
    # traced, the origin follows; a field a later release adds is ignored
    assert parsed_notice(notice(4, 12.5, "00-ab-cd-01")) == (4, 12.5, "00-ab-cd-01")
    assert parsed_notice("4 12.5 00-ab-cd-01 later") == (4, 12.5, "00-ab-cd-01")
    assert Entry.parsed("b", "g1 7 1000 00-ab-cd-01 later").origin == "00-ab-cd-01"


def test_no_span_shows_a_token_a_query_string_or_a_seed(traced):
    api, receiver = traced
    with httpx.Client(base_url=api.url, timeout=30) as client:
        game = create(client, "cup-the-crab", 2, seed=987654321)
        token = tokens_of(game)[0]
        trace_id = secrets.token_hex(16)
        with client.stream("GET", f"/v1/games/{game['id']}/events?token={token}", headers={
                "traceparent": f"00-{trace_id}-{secrets.token_hex(8)}-01"}) as stream:
            assert stream.status_code == 200
            next(stream.iter_lines())
    wait_until(lambda: spans_of(receiver, trace_id), seconds=15, what="the stream's span")
    secrets_shown = (token, "token=", "987654321", game["seats"][1]["token"])
    for span in receiver.spans():
        for key, value in span.attributes.items():
            assert not any(secret in str(value) for secret in secrets_shown), (span.name, key)
