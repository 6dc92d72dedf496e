"""Operations endpoints: health, readiness, metrics, and the OpenAPI document and UI."""

from prometheus_client.parser import text_string_to_metric_families

from tests.service.play import auth, create
from tests.service.servers import Server, wait_until


def test_health_and_ready_answer_ok(client):
    assert client.get("/health").json() == {"status": "ok"}
    ready = client.get("/ready").json()
    assert ready["status"] == "ready" and ready["archive"]["status"] == "ok"
    assert set(ready["archive"]) == {"status", "outbox_depth", "lag_seconds", "refused", "detail"}


def samples(api: Server) -> dict[tuple[str, tuple], float]:
    """Every sample of the replica's metrics, parsed as Prometheus parses them:
    (name, labels) -> value."""
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(api.metrics())
            for sample in family.samples}


def test_metrics_count_requests_by_route_template_never_by_game_id(api, client):
    game = create(client, "cup-the-crab", 2)
    client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"]))
    view = 'crab_http_requests_total{method="GET",route="/v1/games/{game_id}",status="200"}'
    wait_until(lambda: view in api.metrics(), what="the view counted")
    text = api.metrics()
    assert "crab_http_request_duration_seconds_bucket" in text
    assert game["id"] not in text


def test_each_request_is_counted_once_and_timed_in_cumulative_buckets(api, client):
    game = create(client, "cup-the-crab", 2)
    route = (("method", "GET"), ("route", "/v1/games/{game_id}"))
    count = ("crab_http_requests_total", route + (("status", "200"),))
    before = samples(api)
    for _ in range(3):
        client.get(f"/v1/games/{game['id']}")
    wait_until(lambda: samples(api).get(count, 0) - before.get(count, 0) >= 3,
               what="three views counted")
    after = samples(api)

    def grew(name: str, labels: tuple = route) -> float:
        return after[(name, labels)] - before.get((name, labels), 0)
    assert grew(*count) == 3
    assert grew("crab_http_request_duration_seconds_count") == 3
    buckets = sorted(((float(dict(labels)["le"]), value) for (name, labels), value in after.items()
                      if name == "crab_http_request_duration_seconds_bucket"
                      and dict(labels)["route"] == "/v1/games/{game_id}"
                      and dict(labels)["method"] == "GET"))
    assert [value for _, value in buckets] == sorted(value for _, value in buckets)
    assert buckets[-1] == (float("inf"), after[("crab_http_request_duration_seconds_count", route)])
    assert 0 < grew("crab_http_request_duration_seconds_sum") < 3 * 5.0
    # Nothing in progress: the scrape is not a request of the API.
    wait_until(lambda: samples(api)[("crab_http_requests_in_progress", ())] == 0)


def test_metrics_are_not_served_on_the_api_port(api, client):
    assert client.get("/metrics").status_code == 404
    assert "/metrics" not in client.get("/schema/openapi.json").json()["paths"]


def test_a_problem_is_counted_by_its_type(api, client):
    key = ("crab_http_problems_total", (("status", "404"), ("type", "not-found")))
    before = samples(api).get(key, 0)
    assert client.get("/v1/no-such-thing").status_code == 404
    wait_until(lambda: samples(api).get(key, 0) == before + 1, what="the 404 counted")


def test_openapi_document_describes_every_game_route(client):
    spec = client.get("/schema/openapi.json").json()
    assert {"/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/moves",
            "/v1/games/{game_id}/legal-moves", "/v1/games/{game_id}/history"} <= set(spec["paths"])
    assert "CreateGame" in spec["components"]["schemas"]


def test_the_api_ui_loads_its_assets_from_this_service_only(client):
    page = client.get("/schema").text
    assert "https://" not in page and "http://" not in page
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        assert f"/schema/assets/{asset}" in page
        assert client.get(f"/schema/assets/{asset}").status_code == 200
