"""Instants as the API writes them: ISO 8601 in UTC, to the millisecond, with a Z."""

from datetime import UTC, datetime


def iso_time(epoch: float) -> str:
    """An instant given in epoch seconds."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")[:-6] + "Z"


def iso_ms(ms: int | None) -> str | None:
    """An instant given in epoch milliseconds, as the archive keeps them (None stays None)."""
    return None if ms is None else iso_time(ms / 1000)
