"""A finished game the archive's database refuses is set aside, not retried for ever: the
drain goes on with every other game, the operator sees it (a metric, /ready, the log),
lists it and retries it with the documented command once the cause is gone. Run on both
deployments, with a real database that refuses (a trigger on the games' table)."""

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from tests.databases import TestDatabase, migrate, psql
from tests.service.archives import drained
from tests.service.play import create, play_to_end
from tests.service.servers import ROOT, PrivateRedis, Server, server

MARK = "refuse me"  # a seat's name the trigger refuses

POSTGRES_TRIGGER = f"""
CREATE FUNCTION refuse_marked() RETURNS trigger AS $$ BEGIN
  IF NEW.document LIKE '%{MARK}%' THEN
    RAISE EXCEPTION 'the test refuses this game' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER refuse_marked BEFORE INSERT ON archived_games
  FOR EACH ROW EXECUTE FUNCTION refuse_marked();
"""
SQLITE_TRIGGER = f"""
CREATE TRIGGER refuse_marked BEFORE INSERT ON archived_games
  WHEN NEW.document LIKE '%{MARK}%'
  BEGIN SELECT RAISE(ABORT, 'the test refuses this game'); END;
"""


@dataclass
class Deployment:
    api: Server
    database_url: str

    def sql(self, statement: str) -> None:
        if self.database_url.startswith("postgresql"):
            psql(self.database_url, statement)
        else:
            with sqlite3.connect(self.database_url.removeprefix("sqlite:///")) as conn:
                conn.executescript(statement)

    def command(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "service.archive", *args], cwd=ROOT,
                              env={**os.environ, "DATABASE_URL": self.database_url},
                              capture_output=True, text=True, timeout=120)


@pytest.fixture(params=["redis+postgresql", "embedded+sqlite"])
def deployment(request, tmp_path) -> Iterator[Deployment]:
    if request.param == "embedded+sqlite":
        url = f"sqlite:///{tmp_path}/archive.sqlite3"
        migrate(url)
        with server({"DATABASE_URL": url}) as api:
            yield Deployment(api, url)
        return
    database, redis = TestDatabase(), PrivateRedis()
    try:
        with server({"DATABASE_URL": database.url, "REDIS_URL": redis.url}) as api:
            yield Deployment(api, database.url)
    finally:
        redis.stop()
        database.close()


def exported_ids(client: httpx.Client) -> list[str]:
    response = client.get("/v1/games/export")
    assert response.status_code == 200, response.text
    return [httpx.Response(200, content=line).json()["id"] for line in response.text.splitlines()]


def refused_metric(api: Server) -> float:
    [line] = [line for line in api.metrics().splitlines()
              if line.startswith("crab_archive_refused_games ")]
    return float(line.split()[-1])


def test_a_game_the_database_refuses_is_set_aside_shown_and_archived_by_a_retry(deployment):
    deployment.sql(POSTGRES_TRIGGER if deployment.database_url.startswith("postgresql")
                   else SQLITE_TRIGGER)
    with httpx.Client(base_url=deployment.api.url, timeout=30) as client:
        refused = create(client, "cup-the-crab", 2, seats=[{"type": "human", "name": MARK},
                                                            {"type": "human"}])
        taken = create(client, "cup-the-crab", 2)
        for game in (refused, taken):
            play_to_end(client, game, seed=5)
        drained(deployment.api.url)  # the outbox empties: the refusal holds nothing up
        archive = client.get("/ready").json()["archive"]
        assert archive["status"] == "refused" and archive["refused"] == 1, archive
        assert "python -m service.archive refused" in archive["detail"]
        assert refused_metric(deployment.api) == 1
        assert exported_ids(client) == [taken["id"]]
        assert f"refused game {refused['id']}" in deployment.api.output()
        # Its URL still answers, from where it waits.
        assert client.get(f"/v1/games/{refused['id']}").json()["status"] == "over"

        listed = deployment.command("refused")
        assert listed.returncode == 0, listed.stderr
        assert refused["id"] in listed.stdout and "the test refuses this game" in listed.stdout
        again = deployment.command("retry")
        assert again.returncode == 1 and f"{refused['id']}: refused again" in again.stdout

        deployment.sql("DROP TRIGGER refuse_marked" + (
            " ON archived_games" if deployment.database_url.startswith("postgresql") else ""))
        retried = deployment.command("retry", refused["id"])
        assert retried.returncode == 0, retried.stdout + retried.stderr
        assert f"{refused['id']}: archived" in retried.stdout
        assert sorted(exported_ids(client)) == sorted([refused["id"], taken["id"]])
        archive = client.get("/ready").json()["archive"]
        assert archive["status"] == "ok" and archive["refused"] == 0, archive
        assert refused_metric(deployment.api) == 0
        assert "no finished game is set aside" in deployment.command("refused").stdout
