"""Schemathesis against the app's own OpenAPI document, as served: no 5xx, and every answer
documented — its status, its content type and its body's schema.

The app runs in-process with its lifespan (schemathesis starts it once per app on its own
event-loop thread and it is shut down when this module is done). The sandbox fault endpoint
is left out: random knobs (hang_rate=1) would turn every later ticket call into a deadline.
Every case is tallied per operation; the last test shows each operation was called and the
ones that take input were also answered with success (the examples reach real data), so a
run that only met refusals cannot pass. Schemathesis keeps no files here (no `.schemathesis/`).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.main import create_app
from app.settings import Settings
from tests.chaos.conftest import fixed_runtime

# Built at import so schemathesis can parametrize one test per operation; building an app
# opens nothing (its lifespan starts on the first call, in schemathesis' event-loop thread).
# `from_fixture` would defer this, but schemathesis 4.32 reads `request.node._nodeid`, which
# pytest 9 no longer has.
APP = create_app(Settings(), fixed_runtime())
schema = schemathesis.openapi.from_dict(APP.openapi()).exclude(path_regex="^/sandbox/")
schema.app = APP


@pytest.fixture(scope="module", autouse=True)
def _stop_the_app_after_this_module():
    yield
    asgi.shutdown_lifespans()


CALLS: dict[str, Counter[int]] = defaultdict(Counter)


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_endpoint_answers_as_documented_and_never_5xx(case):
    """Positive and negative cases: never a 5xx; every body matches its documented schema."""
    response = case.call_and_validate(
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ]
    )
    CALLS[f"{case.method.upper()} {case.path}"][response.status_code] += 1


def test_zz_every_operation_was_called_and_answered_with_success():
    """Runs after the cases above (pytest keeps file order): each operation was exercised."""
    operations = {
        f"{op.method.upper()} {op.path}" for op in (r.ok() for r in schema.get_all_operations())
    }
    # The coverage phase also tries undocumented methods (answered 405): tallied, not required.
    assert operations <= set(CALLS)
    for operation in operations:
        statuses = CALLS[operation]
        assert any(200 <= status < 300 for status in statuses), (operation, dict(statuses))
    cases = sum(sum(statuses.values()) for statuses in CALLS.values())
    print(f"schemathesis: {len(operations)} operations, {cases} cases, failures: 0")
    for operation, statuses in sorted(CALLS.items()):
        if operation in operations:
            print(f"  {operation}: {dict(sorted(statuses.items()))}")
