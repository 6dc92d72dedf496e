"""Settings of the service, each from an environment variable (documented in docs/configuration.md)."""

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass


# With DATABASE_URL unset, finished games go to a SQLite file in the working directory, so
# `python -m service` keeps its history across restarts with nothing else to run.
DEFAULT_ARCHIVE = "sqlite:///crab-archive.sqlite3"


def _database_url(raw: str | None) -> str:
    if not raw:
        return DEFAULT_ARCHIVE
    if not raw.startswith(("postgresql://", "postgres://", "sqlite:///",
                           "postgresql+asyncpg://", "sqlite+aiosqlite:///")):
        raise ConfigError("DATABASE_URL names a PostgreSQL database (postgresql://user@host:5432/db)"
                          " or a SQLite file (sqlite:///path/to/file)")
    return raw


class ConfigError(ValueError):
    """A setting that cannot be used; the message names the variable and what it accepts."""


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be from {low} to {high}, got {value}")
    return value


def _migrate(raw: str) -> bool:
    if raw not in ("auto", "check"):
        raise ConfigError(f"ARCHIVE_MIGRATE is auto (apply the archive's migrations at start-up)"
                          f" or check (only check them), got {raw!r}")
    return raw == "auto"


def _origins(raw: str) -> tuple[str, ...]:
    origins = tuple(origin.strip().rstrip("/") for origin in raw.split(",") if origin.strip())
    for origin in origins:
        if origin != "*" and not origin.startswith(("http://", "https://")):
            raise ConfigError(f"CORS_ORIGINS lists origins such as https://example.com (or *),"
                              f" got {origin!r}")
    return origins


def _networks(raw: str) -> str:
    try:
        for item in raw.split(","):
            if item.strip():
                ipaddress.ip_network(item.strip(), strict=False)
    except ValueError:
        raise ConfigError(f"TRUSTED_PROXIES lists addresses or networks such as 10.0.0.0/8,"
                          f" got {raw!r}") from None
    return raw


def _hosts(raw: str) -> tuple[str, ...]:
    hosts = tuple(host.strip().lower().rstrip(".") for host in raw.split(",") if host.strip())
    for host in hosts:
        name = host.removeprefix("*.")
        if host != "*" and not all(label and len(label) <= 63 and label.replace("-", "").isalnum()
                                   for label in name.split(".")):
            raise ConfigError(f"WEBHOOK_HOSTS lists host names (bots.example.com), domains"
                              f" (*.example.com) or * (any), got {host!r}")
    return hosts


def _webhook_networks(raw: str) -> str:
    try:
        for item in raw.split(","):
            if item.strip():
                ipaddress.ip_network(item.strip(), strict=False)
    except ValueError:
        raise ConfigError(f"WEBHOOK_NETWORKS lists addresses or networks such as"
                          f" 127.0.0.1/32 or 10.0.0.0/8, got {raw!r}") from None
    return raw


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None     # REDIS_URL; None: the embedded in-process store
    host: str = "127.0.0.1"          # HOST
    port: int = 8000                 # PORT
    workers: int = 1                 # WORKERS (more than 1 needs Redis)
    game_ttl: int = 7 * 24 * 3600    # GAME_TTL_SECONDS: a game idle this long is deleted
    max_body_bytes: int = 16 * 1024  # MAX_BODY_BYTES: larger request bodies get 413
    access_log: bool = True          # ACCESS_LOG=0 turns the JSON request log off
    ai_max_iterations: int = 20_000  # AI_MAX_ITERATIONS: cap of a suggestion or AI seat
    ai_max_time_ms: int = 2_000      # AI_MAX_TIME_MS: the same for a time budget
    cors_origins: tuple[str, ...] = ()  # CORS_ORIGINS: comma-separated origins browsers may call from
    keep_alive_seconds: int = 15     # EVENTS_KEEP_ALIVE_SECONDS: a comment on idle event streams
    turn_seconds_min: int = 5        # TURN_SECONDS_MIN: the shortest turn clock a game may ask for
    creates_per_minute: int = 120    # RATE_LIMIT_CREATES_PER_MINUTE: per client address, 0: off
    moves_per_second: int = 50       # RATE_LIMIT_MOVES_PER_SECOND: per seat token, 0: off
    trusted_proxies: str = ""        # TRUSTED_PROXIES: whose X-Forwarded-For names the client
    ai_max_concurrent: int = 2       # AI_MAX_CONCURRENT: suggestions searching at once per worker
    debug_gc: bool = False           # DEBUG_GC=1: time collections, GET /debug/gc (tests, benchmarks)
    database_url: str = DEFAULT_ARCHIVE  # DATABASE_URL: postgresql://... or sqlite:///path
    archive_migrate: bool = True     # ARCHIVE_MIGRATE=check: only check the schema at start-up
    archived_game_ttl: int = 600     # ARCHIVED_GAME_TTL_SECONDS: kept in the live store once archived
    archive_retention_days: int = 0  # ARCHIVE_RETENTION_DAYS: forget archived games after; 0: never
    archive_lag_seconds: int = 60    # ARCHIVE_LAG_SECONDS: /ready says the archive lags past this
    review_level: int = 5            # REVIEW_LEVEL: the AI level that reviews games (docs/ai.md)
    review_lease_seconds: int = 30   # REVIEW_LEASE_SECONDS: a review stalled this long moves on
    metrics_host: str = "127.0.0.1"  # METRICS_HOST: where /metrics is served, apart from the API
    metrics_port: int = 0            # METRICS_PORT: its port; 0: no metrics served
    metrics_token: str = ""          # METRICS_TOKEN: if set, /metrics wants it as a bearer token
    metrics_on_api_port: bool = False  # METRICS_ON_API_PORT=1: /metrics on the API's port too
    # Webhook bots (service/webhooks, docs/arena.md): where the server may call out, and how.
    webhook_hosts: tuple[str, ...] = ("*",)  # WEBHOOK_HOSTS: names a webhook may name; empty: off
    webhook_networks: str = ""       # WEBHOOK_NETWORKS: private, loopback... networks allowed
    webhook_timeout_ms: int = 2_000  # WEBHOOK_TIMEOUT_MS: a call's deadline (or the clock's, sooner)
    webhook_max_bytes: int = 16_384  # WEBHOOK_MAX_RESPONSE_BYTES: a longer answer is refused
    webhook_max_concurrent: int = 64  # WEBHOOK_MAX_CONCURRENT: calls in flight per worker

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> "Settings":
        settings = cls(
            redis_url=env.get("REDIS_URL") or None,
            host=env.get("HOST") or cls.host,
            port=_int(env, "PORT", cls.port, 1, 65535),
            workers=_int(env, "WORKERS", cls.workers, 1, 64),
            game_ttl=_int(env, "GAME_TTL_SECONDS", cls.game_ttl, 1, 366 * 24 * 3600),
            max_body_bytes=_int(env, "MAX_BODY_BYTES", cls.max_body_bytes, 256, 1 << 20),
            access_log=env.get("ACCESS_LOG", "1") not in ("0", "false", "no"),
            ai_max_iterations=_int(env, "AI_MAX_ITERATIONS", cls.ai_max_iterations, 1,
                                   1_000_000),
            ai_max_time_ms=_int(env, "AI_MAX_TIME_MS", cls.ai_max_time_ms, 1, 60_000),
            cors_origins=_origins(env.get("CORS_ORIGINS", "")),
            keep_alive_seconds=_int(env, "EVENTS_KEEP_ALIVE_SECONDS", cls.keep_alive_seconds,
                                    1, 300),
            turn_seconds_min=_int(env, "TURN_SECONDS_MIN", cls.turn_seconds_min, 1, 86_400),
            creates_per_minute=_int(env, "RATE_LIMIT_CREATES_PER_MINUTE",
                                    cls.creates_per_minute, 0, 1_000_000),
            moves_per_second=_int(env, "RATE_LIMIT_MOVES_PER_SECOND", cls.moves_per_second,
                                  0, 1_000_000),
            trusted_proxies=_networks(env.get("TRUSTED_PROXIES", "")),
            ai_max_concurrent=_int(env, "AI_MAX_CONCURRENT", cls.ai_max_concurrent, 1, 256),
            debug_gc=env.get("DEBUG_GC", "0") not in ("0", "false", "no", ""),
            database_url=_database_url(env.get("DATABASE_URL")),
            archive_migrate=_migrate(env.get("ARCHIVE_MIGRATE", "auto")),
            archived_game_ttl=_int(env, "ARCHIVED_GAME_TTL_SECONDS", cls.archived_game_ttl, 1,
                                   366 * 24 * 3600),
            archive_retention_days=_int(env, "ARCHIVE_RETENTION_DAYS",
                                        cls.archive_retention_days, 0, 100_000),
            archive_lag_seconds=_int(env, "ARCHIVE_LAG_SECONDS", cls.archive_lag_seconds, 1,
                                     7 * 24 * 3600),
            review_level=_int(env, "REVIEW_LEVEL", cls.review_level, 1, 5),
            review_lease_seconds=_int(env, "REVIEW_LEASE_SECONDS", cls.review_lease_seconds,
                                      1, 3600),
            metrics_host=env.get("METRICS_HOST") or cls.metrics_host,
            metrics_port=_int(env, "METRICS_PORT", cls.metrics_port, 0, 65535),
            metrics_token=env.get("METRICS_TOKEN", ""),
            metrics_on_api_port=env.get("METRICS_ON_API_PORT", "0") not in ("0", "false", "no",
                                                                            ""),
            webhook_hosts=_hosts(env.get("WEBHOOK_HOSTS", "*")),
            webhook_networks=_webhook_networks(env.get("WEBHOOK_NETWORKS", "")),
            webhook_timeout_ms=_int(env, "WEBHOOK_TIMEOUT_MS", cls.webhook_timeout_ms, 50,
                                    60_000),
            webhook_max_bytes=_int(env, "WEBHOOK_MAX_RESPONSE_BYTES", cls.webhook_max_bytes,
                                   256, 1 << 20),
            webhook_max_concurrent=_int(env, "WEBHOOK_MAX_CONCURRENT",
                                        cls.webhook_max_concurrent, 1, 4096),
        )
        settings.check()
        return settings

    def check(self) -> None:
        if self.workers > 1 and not self.redis_url:
            raise ConfigError(
                f"{self.workers} workers need REDIS_URL: without Redis each worker would keep"
                " its own games, invisible to the others. Set REDIS_URL or use 1 worker.")
        if self.metrics_port and self.metrics_port == self.port:
            raise ConfigError(
                f"METRICS_PORT must differ from PORT ({self.port}): the metrics are kept off"
                " the API's port, for operators only (docs/configuration.md)")

    def as_env(self) -> dict[str, str]:
        """These settings as the environment variables that from_env reads."""
        env = {"HOST": self.host, "PORT": str(self.port), "WORKERS": str(self.workers),
               "GAME_TTL_SECONDS": str(self.game_ttl),
               "MAX_BODY_BYTES": str(self.max_body_bytes),
               "ACCESS_LOG": "1" if self.access_log else "0",
               "AI_MAX_ITERATIONS": str(self.ai_max_iterations),
               "AI_MAX_TIME_MS": str(self.ai_max_time_ms),
               "CORS_ORIGINS": ",".join(self.cors_origins),
               "EVENTS_KEEP_ALIVE_SECONDS": str(self.keep_alive_seconds),
               "TURN_SECONDS_MIN": str(self.turn_seconds_min),
               "RATE_LIMIT_CREATES_PER_MINUTE": str(self.creates_per_minute),
               "RATE_LIMIT_MOVES_PER_SECOND": str(self.moves_per_second),
               "TRUSTED_PROXIES": self.trusted_proxies,
               "AI_MAX_CONCURRENT": str(self.ai_max_concurrent),
               "DEBUG_GC": "1" if self.debug_gc else "0",
               "DATABASE_URL": self.database_url,
               "ARCHIVE_MIGRATE": "auto" if self.archive_migrate else "check",
               "ARCHIVED_GAME_TTL_SECONDS": str(self.archived_game_ttl),
               "ARCHIVE_RETENTION_DAYS": str(self.archive_retention_days),
               "ARCHIVE_LAG_SECONDS": str(self.archive_lag_seconds),
               "REVIEW_LEVEL": str(self.review_level),
               "REVIEW_LEASE_SECONDS": str(self.review_lease_seconds),
               "METRICS_HOST": self.metrics_host, "METRICS_PORT": str(self.metrics_port),
               "METRICS_TOKEN": self.metrics_token,
               "METRICS_ON_API_PORT": "1" if self.metrics_on_api_port else "0",
               "WEBHOOK_HOSTS": ",".join(self.webhook_hosts),
               "WEBHOOK_NETWORKS": self.webhook_networks,
               "WEBHOOK_TIMEOUT_MS": str(self.webhook_timeout_ms),
               "WEBHOOK_MAX_RESPONSE_BYTES": str(self.webhook_max_bytes),
               "WEBHOOK_MAX_CONCURRENT": str(self.webhook_max_concurrent)}
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        return env
