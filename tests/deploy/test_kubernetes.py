"""The Kubernetes manifests (deploy/kubernetes/) validate against the Kubernetes schemas,
offline, and say what the service needs: probes on /ready and /health, a grace that
covers the drain on SIGTERM, the migration as a Job and `check` on the replicas, the
metrics port kept out of the public Service, settings the service accepts."""

from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from service.__main__ import DRAIN_SECONDS
from service.config import Settings

FOLDER = Path(__file__).resolve().parents[2] / "deploy" / "kubernetes"
VERSIONS = ("1.29.0", "1.33.0")  # a release still supported by most clouds, and a newer one


def manifests() -> list[dict]:
    return [document for path in sorted(FOLDER.glob("*.yaml"))
            for document in yaml.safe_load_all(path.read_text()) if document]


def one(kind: str) -> dict:
    [found] = [document for document in manifests() if document["kind"] == kind]
    return found


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_validates_against_the_kubernetes_schemas(version):
    kinds = []
    for document in manifests():
        kubernetes_validate.validate(document, version, strict=True)
        kinds.append(document["kind"])
    assert sorted(kinds) == sorted(["ConfigMap", "Secret", "Job", "Deployment", "Service",
                                    "NetworkPolicy", "HorizontalPodAutoscaler",
                                    "PodDisruptionBudget"])


def test_a_misspelt_field_is_refused_by_the_validation():
    deployment = one("Deployment")
    deployment["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, VERSIONS[-1], strict=True)


def container() -> dict:
    [api] = one("Deployment")["spec"]["template"]["spec"]["containers"]
    return api


def test_readiness_is_ready_liveness_is_health_on_the_api_port():
    api = container()
    assert api["readinessProbe"]["httpGet"] == {"path": "/ready", "port": "http"}
    assert api["livenessProbe"]["httpGet"] == {"path": "/health", "port": "http"}
    ports = {port["name"]: port["containerPort"] for port in api["ports"]}
    assert ports["http"] == int(one("ConfigMap")["data"]["PORT"])


def test_the_grace_covers_the_pre_stop_pause_and_the_drain():
    api = container()
    pause = int(api["lifecycle"]["preStop"]["exec"]["command"][1])
    grace = one("Deployment")["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert pause >= 2 and grace >= pause + DRAIN_SECONDS + 5


def test_the_settings_are_ones_the_service_accepts_with_the_schema_only_checked():
    settings = Settings.from_env({**one("ConfigMap")["data"], **one("Secret")["stringData"]})
    assert settings.archive_migrate is False  # ARCHIVE_MIGRATE=check on the replicas
    assert settings.redis_url and settings.database_url.startswith("postgresql://")
    assert settings.metrics_port and settings.metrics_port != settings.port


def test_the_migration_runs_as_a_job_with_the_same_image_and_database():
    job = one("Job")["spec"]["template"]["spec"]
    [migrate] = job["containers"]
    assert migrate["command"] == ["python", "-m", "service.archive", "upgrade"]
    assert migrate["image"] == container()["image"]
    assert {"secretRef": {"name": "crab-engines"}} in migrate["envFrom"]
    assert job["restartPolicy"] == "Never"


def test_the_public_service_leaves_the_metrics_port_out():
    metrics = int(one("ConfigMap")["data"]["METRICS_PORT"])
    service = one("Service")["spec"]
    assert [port["targetPort"] for port in service["ports"]] == ["http"]
    assert {"name": "metrics", "containerPort": metrics, "protocol": "TCP"} in container()["ports"]
    # Only the monitoring namespace may reach it
    [public, monitoring] = one("NetworkPolicy")["spec"]["ingress"]
    assert public["ports"] == [{"port": 8000, "protocol": "TCP"}] and "from" not in public
    assert monitoring["ports"] == [{"port": metrics, "protocol": "TCP"}]


def test_the_autoscaler_and_the_budget_are_about_the_deployments_pods():
    deployment = one("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert one("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]["name"] == \
        deployment["metadata"]["name"]
    assert one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert one("Service")["spec"]["selector"].items() <= labels.items()
    assert container()["resources"]["requests"]["cpu"]
