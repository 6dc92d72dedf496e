"""A primary's failover under load: 503s only, nothing hung, every game consistent."""

import sys

from tests.service.servers import ROOT

sys.path.insert(0, str(ROOT / "loadtests"))
import failover  # noqa: E402


def test_a_primary_killed_during_a_locust_run_costs_only_503s_and_no_game(capsys):
    assert failover.main(["--users", "4", "--run-time", "16", "--kill-after", "6"]) == 0
    report = capsys.readouterr().out
    assert "| failed with anything but 503 | 0 |" in report
    assert "| games broken | 0 |" in report
