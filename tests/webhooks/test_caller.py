"""The server calling out (service/webhooks/caller.py): each limit, against real HTTP servers
on loopback that the configuration allows or not. A refused call never reaches the server."""

import asyncio
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from service.webhooks import signing
from service.webhooks.caller import Caller, Outcome
from service.webhooks.destinations import Destinations, _networks

LOOPBACK = _networks("127.0.0.1/32")
SECRET = "crab_whsec_test"


async def _serve(handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                 ) -> tuple[web.AppRunner, int, list[web.Request]]:
    """A real HTTP server on a loopback port answering every POST with handler."""
    seen: list[web.Request] = []

    async def handle(request: web.Request) -> web.StreamResponse:
        seen.append(request)
        return await handler(request)

    app = web.Application()
    app.router.add_post("/{tail:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1], seen  # type: ignore[union-attr]


async def _answer(request: web.Request) -> web.Response:
    body = await request.read()
    ok = signing.verify(SECRET, request.headers[signing.HEADER], body, time.time())
    return web.json_response({"move": {"type": "pass"}, "signed": ok})


def call(handler, *, hosts=("*",), networks=LOOPBACK, timeout_ms=2000, max_bytes=16384,
         url: str = "http://127.0.0.1:{port}/decide", deadline_in: float = 30,
         concurrent: int = 1, calls: int = 1) -> tuple[list[Outcome], list[web.Request]]:
    """Calls a real server on loopback `calls` times at once: the outcomes, what it saw."""
    async def run() -> tuple[list[Outcome], list[web.Request]]:
        runner, port, seen = await _serve(handler)
        caller = Caller(Destinations(tuple(hosts), networks), timeout_ms, max_bytes, concurrent)
        try:
            outcomes = await asyncio.gather(*[
                caller.call(url.format(port=port), [SECRET], b'{"game": 1}',
                            time.time() + deadline_in, "g:1:0") for _ in range(calls)])
        finally:
            await caller.close()
            await runner.cleanup()
        return list(outcomes), seen
    return asyncio.run(run())


def test_an_allowed_loopback_server_gets_a_signed_call_and_its_answer_is_read():
    [outcome], seen = call(_answer)
    assert outcome.failure is None, outcome
    assert outcome.answer == {"move": {"type": "pass"}, "signed": True}
    assert seen[0].headers["Crab-Delivery"] == "g:1:0"


def test_loopback_is_refused_unless_the_operator_allows_it_and_nothing_is_sent():
    [outcome], seen = call(_answer, networks=())
    assert outcome.failure == "refused" and seen == []


def test_a_name_resolving_to_loopback_is_refused_at_the_call():
    [outcome], seen = call(_answer, networks=(), url="http://localhost:{port}/decide")
    assert outcome.failure == "refused" and seen == []


def test_a_host_name_outside_the_allow_list_is_refused():
    [outcome], seen = call(_answer, hosts=("bots.example.com",))
    assert outcome.failure == "refused" and seen == []


def test_no_webhook_is_called_when_the_allow_list_is_empty():
    [outcome], seen = call(_answer, hosts=())
    assert outcome.failure == "refused" and seen == []


def test_a_redirect_is_not_followed():
    async def redirect(request: web.Request) -> web.Response:
        if request.path == "/elsewhere":
            return web.json_response({"move": {"type": "pass"}})
        raise web.HTTPTemporaryRedirect("/elsewhere")

    [outcome], seen = call(redirect)
    assert outcome.failure == "redirect"
    assert [request.path for request in seen] == ["/decide"]


def test_an_error_status_is_a_failed_call():
    async def broken(request: web.Request) -> web.Response:
        return web.Response(status=500, text="boom")

    [outcome], _ = call(broken)
    assert outcome.failure == "status"


def test_a_huge_answer_is_refused_with_or_without_its_length():
    async def huge(request: web.Request) -> web.Response:
        return web.Response(body=b"x" * 1_000_000)

    async def streamed(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse()  # chunked: no Content-Length to go by
        await response.prepare(request)
        for _ in range(100):
            await response.write(b"[" * 10_000)
        return response

    for handler in (huge, streamed):
        [outcome], _ = call(handler, max_bytes=4096)
        assert outcome.failure == "too-large", handler


def test_a_slow_server_is_late_at_the_configured_deadline():
    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(3)
        return web.json_response({"move": {}})

    [outcome], _ = call(slow, timeout_ms=300)
    assert outcome.failure == "late" and 0.25 < outcome.seconds < 1.5, outcome


def test_the_clock_s_deadline_cuts_a_call_shorter_than_the_configured_one():
    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(3)
        return web.json_response({"move": {}})

    [outcome], _ = call(slow, timeout_ms=5000, deadline_in=0.3)
    assert outcome.failure == "late" and outcome.seconds < 1.5, outcome


def test_a_call_past_its_deadline_is_not_made():
    [outcome], seen = call(_answer, deadline_in=-1)
    assert outcome.failure == "late" and seen == []


def test_calls_over_the_concurrency_cap_wait_and_are_not_made_past_their_deadline():
    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(1)
        return web.json_response({"move": {}})

    async def run() -> tuple[list[Outcome], list[web.Request]]:
        runner, port, seen = await _serve(slow)
        caller = Caller(Destinations(("*",), LOOPBACK), 5000, 1024, 1)
        url = f"http://127.0.0.1:{port}/"

        async def later(deadline_in: float) -> Outcome:
            await asyncio.sleep(0.1)  # the first call holds the one slot by then
            return await caller.call(url, [SECRET], b"{}", time.time() + deadline_in, "d")
        try:
            outcomes = await asyncio.gather(
                caller.call(url, [SECRET], b"{}", time.time() + 30, "d"), later(0.3), later(0.3))
        finally:
            await caller.close()
            await runner.cleanup()
        return list(outcomes), seen

    outcomes, seen = asyncio.run(run())
    assert [outcome.failure for outcome in outcomes] == [None, "busy", "busy"]
    assert len(seen) == 1


def test_an_answer_that_is_not_json_is_malformed():
    async def text(request: web.Request) -> web.Response:
        return web.Response(text="pass")

    [outcome], _ = call(text)
    assert outcome.failure == "malformed"


def test_a_closed_port_is_unreachable():
    async def run() -> Outcome:
        caller = Caller(Destinations(("*",), LOOPBACK), 1000, 1024, 4)
        try:
            return await caller.call("http://127.0.0.1:9/", [SECRET], b"{}", time.time() + 5, "d")
        finally:
            await caller.close()
    assert asyncio.run(run()).failure == "unreachable"
