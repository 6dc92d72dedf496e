"""The event bench cannot rot, and the event metrics count what the streams received."""

import json
import os
import subprocess
import sys

from tests.service.servers import ROOT, PrivateRedis


def test_a_short_bench_delivers_every_version_and_the_metrics_agree(tmp_path):
    redis = PrivateRedis()  # the bench flushes its database
    try:
        done = subprocess.run(
            [sys.executable, str(ROOT / "loadtests" / "events_bench.py"), "--streams", "60",
             "--games", "10", "--rate", "10", "--seconds", "3", "--out",
             str(tmp_path / "bench.json")], capture_output=True, text=True, timeout=180,
            env={**os.environ, "REDIS_URL": redis.url})
    finally:
        redis.stop()
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads((tmp_path / "bench.json").read_text())
    assert result["streams"] == 60 and result["moves"] > 10 and result["settled"]
    assert result["gaps"] == 0 and result["stream_errors"] == 0
    assert result["latency_from_sent_ms"]["count"] > result["moves"]  # each move, many streams
    # The commit is after the POST was sent and before its response: its entry's time,
    # truncated to the millisecond, puts the latency from it between the two, within 1 ms.
    sent, back, commit = (result[f"latency_from_{name}_ms"] for name in ("sent", "response",
                                                                         "commit"))
    assert commit["count"] == sent["count"]
    assert back["p50"] - 0.1 <= commit["p50"] <= sent["p50"] + 1.0, (back, commit, sent)
    for replica in result["metrics"]:
        assert replica["streams_open_metric"] == replica["streams_held_by_client"] > 0
        assert replica["events_sent_metric"] == replica["events_received"] > 0
        # a version read before its notice arrived has no commit time: rare, not counted
        assert 0.9 * replica["events_received"] <= replica["fan_out_lag_observations"] \
            <= replica["events_received"]
    assert result["memory"]["measured"] and result["memory"]["kib_per_stream"] > 0
