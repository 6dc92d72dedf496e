"""A webhook bot: an HTTP endpoint the server asks each decision (docs/arena.md, "Webhook bots").

    python examples/webhook_bot.py --server http://127.0.0.1:8000 --port 8100

registers a bot whose webhook is this process (the server's WEBHOOK_NETWORKS must allow
127.0.0.1 for a bot on loopback), prints its id and key as one JSON line, and answers each
decision with a random legal move. Every call's signature is checked first. Python's
standard library only; CRAB_WEBHOOK_SECRET serves a bot registered before.
"""

import argparse
import hashlib
import hmac
import json
import os
import random
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 300  # a call signed longer ago than this is a replay: refused


def signed(secret: str, header: str, body: bytes) -> bool:
    """Crab-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + body>[,v1=...]"""
    fields = [item.partition("=") for item in header.split(",")]
    stamp = next((value for key, _, value in fields if key == "t"), "")
    if not stamp.isdigit() or abs(time.time() - int(stamp)) > TOLERANCE_SECONDS:
        return False
    mine = hmac.new(secret.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(mine, value) for key, _, value in fields if key == "v1")


class Decisions(BaseHTTPRequestHandler):
    secret = ""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not signed(self.secret, self.headers.get("Crab-Signature", ""), body):
            self.send_error(401, "bad signature")
            return
        game = json.loads(body)["game"]          # the seat's GET /v1/games/{id}
        answer = json.dumps({"move": random.choice(game["legal_moves"])}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *_: object) -> None:  # quiet: one line per decision is noise
        pass


def register(server: str, name: str, url: str) -> dict:
    request = urllib.request.Request(
        f"{server}/v1/players", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"name": name, "kind": "bot", "webhook": {"url": url}}).encode())
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="register a new bot with this server")
    parser.add_argument("--name", default="Webhook bot")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    args = parser.parse_args()
    httpd = ThreadingHTTPServer((args.host, args.port), Decisions)
    Decisions.secret = os.environ.get("CRAB_WEBHOOK_SECRET", "")
    if args.server:
        bot = register(args.server, args.name, f"http://{args.host}:{httpd.server_port}/")
        Decisions.secret = bot["webhook"]["secret"]
        print(json.dumps({"id": bot["id"], "key": bot["key"]}), flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
