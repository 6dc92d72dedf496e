"""`python -m service` (or `crab-service`): serve the API with uvicorn.

Command-line flags override the environment variables of service.config.Settings.
"""

import argparse
import dataclasses
import importlib.util
import logging
import os
import sys
from urllib.parse import urlsplit

import uvicorn

from service.config import ConfigError, Settings
from service.replica.exposition import metrics_served

DRAIN_SECONDS = 30  # on SIGTERM, requests in flight get this long to finish

LOG_CONFIG = {
    "version": 1, "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"stdout": {"class": "logging.StreamHandler", "formatter": "plain",
                            "stream": "ext://sys.stdout"}},
    "loggers": {"service": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
                "uvicorn": {"handlers": ["stdout"], "level": "INFO", "propagate": False}},
}


def _where(settings: Settings) -> str:
    if not settings.redis_url:
        return ("the embedded in-process store (games live in this process only and vanish"
                " when it stops; set REDIS_URL to keep and share them)")
    url = urlsplit(settings.redis_url)
    return f"Redis at {url.hostname}:{url.port or 6379}"  # never print a password


def main(argv: list[str] | None = None) -> None:
    try:
        defaults = Settings.from_env()
        parser = argparse.ArgumentParser(prog="crab-service", description=__doc__.splitlines()[0])
        parser.add_argument("--host", default=defaults.host)
        parser.add_argument("--port", type=int, default=defaults.port)
        parser.add_argument("--workers", type=int, default=defaults.workers)
        args = parser.parse_args(argv)
        settings = dataclasses.replace(defaults, host=args.host, port=args.port,
                                       workers=args.workers)
        settings.check()
    except ConfigError as error:
        sys.exit(f"crab-service: {error}")
    os.environ.update(settings.as_env())  # workers build their app from the environment
    logging.config.dictConfig(LOG_CONFIG)
    logging.getLogger("service").info(
        "serving on http://%s:%d with %d worker(s), games in %s", settings.host, settings.port,
        settings.workers, _where(settings))
    try:
        with metrics_served(settings):
            uvicorn.run("service.app:create_app", factory=True, host=settings.host,
                        port=settings.port, workers=settings.workers, log_config=LOG_CONFIG,
                        access_log=False,
                        loop="uvloop" if importlib.util.find_spec("uvloop") else "asyncio",
                        http="httptools", proxy_headers=False, server_header=False,
                        timeout_graceful_shutdown=DRAIN_SECONDS)
    except ConfigError as error:  # the metrics' address cannot be bound
        sys.exit(f"crab-service: {error}")


if __name__ == "__main__":
    main()
