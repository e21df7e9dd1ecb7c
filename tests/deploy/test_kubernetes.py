"""deploy/k8s: `kubectl kustomize` renders it, and the result validates strictly against the
Kubernetes schemas (kubernetes-validate, offline); the fleet's settings, probes, resources,
security context, Secret references, Service, PodDisruptionBudget and scraping agree with each
other and with the image.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.redis_url import parse_redis_url
from app.settings import Settings
from tests.deploy.conftest import DEPLOY
from tests.deploy.packaging import ROOT, run

K8S = DEPLOY / "k8s"
VALIDATE = Path(sys.executable).parent / "kubernetes-validate"
# bench/README.md: RSS after start-up and the first answers, with the 4,096-entry L1 full of
# 12-offer answers (bench/memory.py), and that L1's share, which 30-40-offer answers triple.
STARTED_MIB, PLATEAU_MIB, L1_MIB = 113, 246, 150


def mebibytes(quantity: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(Mi|Gi)", quantity).groups()  # type: ignore[union-attr]
    return int(number) * (1024 if unit == "Gi" else 1)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kubectl = shutil.which("kubectl")
    assert kubectl is not None, "kubectl is not on PATH: `make test` installs it"
    out = tmp_path_factory.mktemp("k8s") / "rendered.yaml"
    out.write_text(run(kubectl, "kustomize", K8S).stdout)
    return out


@pytest.fixture(scope="module")
def objects(rendered: Path) -> dict[str, dict[str, Any]]:
    docs = [d for d in yaml.safe_load_all(rendered.read_text()) if d]
    return {doc["kind"]: doc for doc in docs}


@pytest.fixture(scope="module")
def container(objects) -> dict[str, Any]:
    (only,) = objects["Deployment"]["spec"]["template"]["spec"]["containers"]
    return only


@pytest.fixture
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith("RAILTRIP_")]:
        monkeypatch.delenv(key)


def test_the_rendered_kustomization_validates_strictly(rendered: Path, objects) -> None:
    result = run(VALIDATE, "--strict", rendered)
    passed = re.findall(r"passed for resource (\S+)", result.stdout)
    assert sorted(passed) == sorted(f"{kind.lower()}/railtrip" for kind in objects)
    assert "WARN" not in result.stdout + result.stderr
    assert set(objects) == {"ConfigMap", "Deployment", "Service", "PodDisruptionBudget"}


def test_strict_validation_refuses_a_field_kubernetes_does_not_know(
    rendered: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(rendered.read_text().replace("readOnlyRootFilesystem:", "readOnlyRoot:"))
    result = run_unchecked(VALIDATE, "--strict", broken)
    assert result.returncode != 0 and "readOnlyRoot" in result.stdout + result.stderr


def run_unchecked(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=120, check=False
    )


def test_replicas_and_expected_replicas_are_in_step(objects) -> None:
    replicas = objects["Deployment"]["spec"]["replicas"]
    assert replicas >= 2
    assert objects["ConfigMap"]["data"]["RAILTRIP_EXPECTED_REPLICAS"] == str(replicas)
    assert objects["PodDisruptionBudget"]["spec"]["maxUnavailable"] < replicas


def test_the_settings_load_into_the_service_settings(
    objects, tmp_path: Path, clean_environ: None
) -> None:
    data = objects["ConfigMap"]["data"]
    env_file = tmp_path / "k8s.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in data.items() if k.startswith("RAILTRIP_")))
    settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    assert settings.sandbox_admin is False
    assert not any(source.startswith("sandbox-") for source in settings.sources)
    assert settings.redis_url is not None


def test_the_documented_redis_forms_parse_as_cluster_and_sentinel() -> None:
    text = (K8S / "configmap.yaml").read_text(encoding="utf-8")
    forms = {parse_redis_url(url).kind for url in re.findall(r"redis\+\w+://\S+", text)}
    assert forms == {"cluster", "sentinel"}


def test_probes_ports_and_scrape_annotations_match_the_image(objects, container) -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    (exposed,) = re.findall(r"^EXPOSE (\d+)$", dockerfile, re.M)
    (port,) = container["ports"]
    assert port == {"name": "http", "containerPort": int(exposed)}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert container["args"][container["args"].index("--port") + 1] == exposed
    annotations = objects["Deployment"]["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/port"] == exposed
    assert annotations["prometheus.io/path"] == "/metrics"


def test_resources_cover_what_the_benchmarks_measured(container) -> None:
    requests, limits = container["resources"]["requests"], container["resources"]["limits"]
    assert mebibytes(requests["memory"]) >= PLATEAU_MIB
    assert mebibytes(limits["memory"]) >= STARTED_MIB + 3 * L1_MIB
    assert requests["cpu"] and limits["cpu"] == "1"  # one event loop uses one core at most


def test_runs_as_the_images_non_root_user_with_nothing_writable_but_its_volumes(
    objects, container
) -> None:
    pod = objects["Deployment"]["spec"]["template"]["spec"]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    (uid,) = re.findall(r"^USER (\d+):\d+$", dockerfile, re.M)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == int(uid)
    assert container["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]},
    }
    writable = {m["mountPath"] for m in container["volumeMounts"] if not m.get("readOnly")}
    assert writable == {"/home/railtrip", "/tmp"}


def test_keys_come_from_the_secret_the_example_describes(objects, container) -> None:
    env = {item["name"]: item for item in container["env"]}
    refs = {
        name: item["valueFrom"]["secretKeyRef"] for name, item in env.items() if "valueFrom" in item
    }
    assert {"RAILTRIP_LLM_API_KEY", "RAILTRIP_JUHE_API_KEY"} <= set(refs)
    pod = objects["Deployment"]["spec"]["template"]["spec"]
    (secret_volume,) = [v for v in pod["volumes"] if "secret" in v]
    (mount,) = [m for m in container["volumeMounts"] if m["name"] == secret_volume["name"]]
    (item,) = secret_volume["secret"]["items"]
    assert env["RAILTRIP_API_KEYS_FILE"]["value"] == f"{mount['mountPath']}/{item['path']}"
    example = yaml.safe_load((K8S / "secret.example.yaml").read_text(encoding="utf-8"))
    names = {ref["name"] for ref in refs.values()} | {secret_volume["secret"]["secretName"]}
    assert names == {example["metadata"]["name"]}
    keys = {ref["key"] for ref in refs.values()} | {item["key"]}
    assert keys <= set(example["stringData"])
    assert not any(secret in str(objects) for secret in example["stringData"].values())


def test_the_service_and_the_budget_select_the_pods(objects) -> None:
    labels = objects["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert objects["Deployment"]["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert objects["Service"]["spec"]["selector"].items() <= labels.items()
    assert objects["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"].items() <= (
        labels.items()
    )
    (port,) = objects["Service"]["spec"]["ports"]
    assert port["targetPort"] == "http"


def test_the_service_monitor_scrapes_the_service_with_the_metrics_key(objects) -> None:
    monitor = yaml.safe_load((K8S / "servicemonitor.yaml").read_text(encoding="utf-8"))
    example = yaml.safe_load((K8S / "secret.example.yaml").read_text(encoding="utf-8"))
    assert monitor["spec"]["selector"]["matchLabels"].items() <= (
        objects["Service"]["metadata"]["labels"].items()
    )
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] == objects["Service"]["spec"]["ports"][0]["name"]
    assert endpoint["path"] == "/metrics"
    credentials = endpoint["authorization"]["credentials"]
    assert credentials["name"] == example["metadata"]["name"]
    assert credentials["key"] in example["stringData"]
