"""The Grafana dashboard (deploy/grafana/crab-engines.json): valid JSON, every panel's
query naming only metrics the service exports, and each query accepted by Prometheus."""

import json

from tests.deploy.conftest import DASHBOARD, metric_names


def queries() -> list[tuple[str, str]]:
    return [(panel["title"], target["expr"])
            for panel in json.loads(DASHBOARD.read_text())["panels"]
            for target in panel["targets"]]


def test_the_dashboard_is_json_with_a_query_in_every_panel():
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"]
    assert all(panel["targets"] for panel in dashboard["panels"])
    assert len({panel["id"] for panel in dashboard["panels"]}) == len(dashboard["panels"])


def test_every_panel_queries_metrics_the_service_exports(deployment):
    exported = {sample["metric"]["__name__"]
                for sample in deployment.prometheus.query('{job="crab"}')}
    for title, expression in queries():
        assert metric_names(expression), title
        assert metric_names(expression) <= exported | {"up"}, (title, expression)


def test_every_query_is_accepted_by_prometheus(deployment):
    """Grafana's variables as it would fill them; a query Prometheus refuses fails here."""
    for title, expression in queries():
        concrete = expression.replace("$__rate_interval", "1m").replace('"$job"', '".*"')
        assert deployment.prometheus.query(concrete) is not None, title
