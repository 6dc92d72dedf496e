"""The drain's pace: flat out on an idle replica, a small share of the clock on a busy one
(a backlog after an outage must not sit in front of live games' moves)."""

import time

from service.archive.writer import Pace


class Requests:
    """A count of requests begun, as service.replica.observe keeps it."""

    def __init__(self) -> None:
        self.begun = 0

    def __call__(self) -> int:
        return self.begun


def test_a_replica_that_answers_no_request_drains_without_pausing():
    requests = Requests()
    pace = Pace(requests)
    time.sleep(Pace.WINDOW)
    assert pace.look() is False
    assert pace.rest(0.5) == 0.0


def test_a_replica_serving_requests_gives_the_drain_only_its_share_of_the_clock():
    requests = Requests()
    pace = Pace(requests)
    time.sleep(Pace.WINDOW)
    requests.begun += 100  # far above BUSY_RATE over one window
    assert pace.look() is True
    worked = 0.02
    assert abs(worked / (worked + pace.rest(worked)) - Pace.SHARE) < 1e-9


def test_the_pace_goes_back_to_full_speed_once_requests_stop():
    requests = Requests()
    pace = Pace(requests)
    time.sleep(Pace.WINDOW)
    requests.begun += 100
    assert pace.look() is True
    time.sleep(Pace.WINDOW)
    assert pace.look() is False


def test_a_few_requests_a_second_do_not_slow_the_drain():
    requests = Requests()
    pace = Pace(requests)
    time.sleep(Pace.WINDOW * 2)
    requests.begun += 1  # a health check
    assert pace.look() is False
