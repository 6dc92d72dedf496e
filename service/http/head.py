"""HEAD answered as the GET of the same URL without its body (RFC 9110, section 9.3.2).

Litestar routes a HEAD only to handlers declared for it, so a HEAD of a page, an asset or
a game answered 405. Every GET here is safe to run for its headers, so this middleware runs
the GET and sends its status and headers (Content-Length, ETag and all) with an empty
body; once they are sent, the application is told the client went away, which ends an
event stream at once instead of feeding a body nobody reads.
"""

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.replica.observe import send_late_body


def head_as_get(app: ASGIApp) -> ASGIApp:
    async def with_head(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await app(scope, receive, send)
            return
        sent = False

        async def headers_only(message: Message) -> None:
            nonlocal sent
            if message["type"] == "http.response.start":
                await send(message)
            elif message["type"] == "http.response.body" and not sent:
                sent = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def gone_once_sent() -> Message:
            if sent:
                return {"type": "http.disconnect"}
            return await receive()

        as_get = {**scope, "method": "GET"}
        await app(as_get, gone_once_sent, headers_only)
        # An event stream leaves its body in this scope of our own: sent here, it ends
        # after the headers (the stream hears that its client went).
        await send_late_body(as_get, gone_once_sent, headers_only)
    return with_head
