"""The alert rules (deploy/prometheus/alerts.yml) are valid, pass their unit tests, name
only what the service exports, and fire on a real Prometheus when the store goes away."""

import time

import httpx
import yaml

from tests.deploy.conftest import metric_names
from tests.prometheus import RULES, promtool
from tests.service.servers import wait_until


def expressions() -> list[tuple[str, str]]:
    return [(rule["alert"], rule["expr"]) for group in yaml.safe_load(RULES.read_text())["groups"]
            for rule in group["rules"]]


def test_the_rules_pass_promtool_check_rules():
    checked = promtool("check", "rules", str(RULES))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {len(expressions())} rules found" in checked.stdout


def test_the_rules_pass_their_unit_tests():
    tested = promtool("test", "rules", str(RULES.with_name("alerts_test.yml")))
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_every_alert_is_about_what_the_operators_must_hear():
    assert {name for name, _ in expressions()} >= {
        "CrabServerErrors", "CrabArchiveLagging", "CrabArchiveRefusing", "CrabOutboxDeep",
        "CrabStoreUnavailable", "CrabEventStreamsDropped", "CrabAIBusy", "CrabReplicaDown"}


def test_every_metric_the_rules_name_is_exported_by_the_service(deployment):
    exported = {sample["metric"]["__name__"]
                for sample in deployment.prometheus.query('{job="crab"}')}
    for name, expression in expressions():
        assert metric_names(expression), name
        assert metric_names(expression) <= exported | {"up"}, (name, expression)


def test_the_store_going_away_fires_the_store_alert_on_a_real_prometheus(deployment):
    prometheus, api, redis = deployment.prometheus, deployment.api, deployment.redis
    with httpx.Client(base_url=api.url, timeout=30) as client:
        game = client.post("/v1/games", json={"game": "cup-the-crab", "players": 2}).json()
        time.sleep(1.5)  # several evaluations with the store up: quiet
        assert not [alert for alert in prometheus.alerts()
                    if alert["labels"]["alertname"] == "CrabStoreUnavailable"]
        redis.stop()
        try:
            def firing() -> bool:
                assert client.get(f"/v1/games/{game['id']}").status_code == 503
                return any(alert["labels"]["alertname"] == "CrabStoreUnavailable"
                           and alert["state"] == "firing"
                           and alert["labels"]["instance"] == api.metrics_url.split("/")[2]
                           for alert in prometheus.alerts())
            wait_until(firing, seconds=15, what="CrabStoreUnavailable firing")
        finally:
            redis.start()
