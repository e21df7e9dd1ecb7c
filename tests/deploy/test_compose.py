"""compose.yaml, the local fleet: valid against the compose specification, three replicas behind
one published port with RAILTRIP_EXPECTED_REPLICAS in step, Prometheus on railtrip's rules
scraping every replica, Grafana provisioned, and the Redis Cluster override.

No container engine runs here: the files are checked against the compose-spec schema
(check-jsonschema's vendored copy, offline), promtool checks the Prometheus configuration, and
the rest is read as the engine would read it.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.redis_url import parse_redis_url
from app.settings import Settings
from tests.deploy.conftest import DASHBOARD, DEPLOY, ROOT, RULES, run_promtool
from tests.deploy.packaging import run

COMPOSE = ROOT / "compose.yaml"
CLUSTER = DEPLOY / "compose" / "redis-cluster.yaml"
CHECK_JSONSCHEMA = Path(sys.executable).parent / "check-jsonschema"


def interpolated(value: object) -> str:
    """A compose value with `${NAME:-default}` read as its default (nothing set)."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(value))


def load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return document


def merged(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """`docker compose -f base -f override`: per service, mappings merge and the rest replace."""
    services = {name: dict(service) for name, service in base["services"].items()}
    for name, extra in override["services"].items():
        service = services.setdefault(name, {})
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(service.get(key), dict):
                service[key] = service[key] | value
            else:
                service[key] = value
    return {**base, "services": services}


def mounts(service: dict[str, Any]) -> dict[str, Path]:
    """Container path -> repository path of a service's bind mounts."""
    found = {}
    for volume in service.get("volumes", []):
        host, container = volume.split(":")[:2]
        found[container] = (ROOT / host).resolve()
    return found


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return load(COMPOSE)


@pytest.fixture
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith("RAILTRIP_")]:
        monkeypatch.delenv(key)


def test_the_compose_files_are_valid_against_the_compose_specification() -> None:
    result = run(CHECK_JSONSCHEMA, "--builtin-schema", "vendor.compose-spec", COMPOSE, CLUSTER)
    assert "ok -- validation done" in result.stdout


def test_three_replicas_behind_one_published_port_told_how_many_they_are(compose) -> None:
    services = compose["services"]
    railtrip = services["railtrip"]
    replicas = railtrip["deploy"]["replicas"]
    assert interpolated(replicas) == "3"
    # One knob for both, so `RAILTRIP_REPLICAS=5 docker compose up` keeps them in step.
    assert railtrip["environment"]["RAILTRIP_EXPECTED_REPLICAS"] == replicas
    assert re.fullmatch(r"\$\{RAILTRIP_REPLICAS:-\d+\}", replicas)
    assert "ports" not in railtrip  # replicas cannot share a host port: the proxy publishes
    (published,) = services["proxy"]["ports"]
    host_ip, host_port, container_port = published.split(":")
    assert host_ip == "127.0.0.1" and host_port == "8000"
    nginx = (DEPLOY / "compose" / "nginx.conf").read_text(encoding="utf-8")
    assert f"listen {container_port};" in nginx
    (port,) = railtrip["expose"]
    assert re.search(rf"server railtrip:{port} resolve;", nginx)
    assert nginx.count("proxy_pass http://railtrip;") >= 1


def test_the_fleets_settings_load_into_the_service_settings(
    compose, tmp_path: Path, clean_environ: None
) -> None:
    environment = compose["services"]["railtrip"]["environment"]
    env_file = tmp_path / "fleet.env"
    env_file.write_text(
        "".join(
            f"{k}={interpolated(v)}\n" for k, v in environment.items() if k.startswith("RAILTRIP_")
        )
    )
    settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    assert settings.expected_replicas == 3
    assert settings.redis_url is not None
    assert parse_redis_url(settings.redis_url).kind == "single"


def test_every_file_the_fleet_mounts_or_builds_from_is_in_the_repository(compose) -> None:
    for name, service in merged(compose, load(CLUSTER))["services"].items():
        for container, host in mounts(service).items():
            assert host.is_relative_to(ROOT), f"{name} mounts {host} from outside the repository"
            assert host.exists(), f"{name} mounts missing {host} at {container}"
    assert compose["services"]["railtrip"]["build"] == "."
    assert (ROOT / "Dockerfile").exists()


def test_prometheus_loads_railtrips_rules_and_scrapes_every_replica(
    compose, promtool: str, tmp_path: Path
) -> None:
    prometheus = compose["services"]["prometheus"]
    mounted = mounts(prometheus)
    (rules_at,) = [c for c, host in mounted.items() if host == RULES.resolve()]
    (config_at,) = [c for c in mounted if c.endswith("prometheus.yml")]
    assert f"--config.file={config_at}" in prometheus["command"]
    config = load(mounted[config_at])
    assert config["rule_files"] == [rules_at]
    (job,) = config["scrape_configs"]
    (discovery,) = job["dns_sd_configs"]  # one target per replica, not one per service
    assert discovery["names"] == ["railtrip"] and discovery["type"] == "A"
    assert str(discovery["port"]) == compose["services"]["railtrip"]["expose"][0]
    # promtool reads the configuration and the rules it names, as the container will.
    config["rule_files"] = [str(RULES)]
    checked = tmp_path / "prometheus.yml"
    checked.write_text(yaml.safe_dump(config))
    result = run_promtool(promtool, "check", "config", str(checked))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout + result.stderr


def test_grafana_is_provisioned_with_the_fleets_prometheus_and_the_dashboard(compose) -> None:
    grafana = mounts(compose["services"]["grafana"])
    sources = grafana["/etc/grafana/provisioning/datasources"]
    (datasource,) = load(sources / "prometheus.yml")["datasources"]
    prometheus_port = compose["services"]["prometheus"]["ports"][0].split(":")[-1]
    assert datasource["type"] == "prometheus" and datasource["isDefault"] is True
    assert datasource["url"] == f"http://prometheus:{prometheus_port}"
    providers = grafana["/etc/grafana/provisioning/dashboards"]
    (provider,) = load(providers / "railtrip.yml")["providers"]
    (dashboard_at,) = [c for c, host in grafana.items() if host == DASHBOARD.resolve()]
    assert Path(dashboard_at).parent == Path(provider["options"]["path"])


def test_the_cluster_override_puts_every_replica_on_every_cluster_node(compose) -> None:
    services = merged(compose, load(CLUSTER))["services"]
    nodes = {
        name
        for name, service in services.items()
        if "--cluster-enabled" in service.get("command", [])
    }
    assert nodes == {"redis", "redis-2", "redis-3"}
    url = services["railtrip"]["environment"]["RAILTRIP_REDIS_URL"]
    target = parse_redis_url(url)
    assert target.kind == "cluster"
    assert {host for host, _ in target.hosts} == nodes
    expected = services["railtrip"]["environment"]["RAILTRIP_EXPECTED_REPLICAS"]
    assert expected == services["railtrip"]["deploy"]["replicas"]
    init = " ".join(services["redis-cluster-init"]["command"])
    assert all(f"getent hosts {node} " in init for node in nodes)
    assert services["railtrip"]["depends_on"]["redis-cluster-init"] == {
        "condition": "service_completed_successfully"
    }
