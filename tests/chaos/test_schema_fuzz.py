"""Schemathesis against the app's own OpenAPI document: no 5xx, every answer as documented.

The app runs in-process with its lifespan (schemathesis starts it once per app on its own
event-loop thread and it is shut down when this module is done). The sandbox fault endpoint
is left out: random knobs (hang_rate=1) would turn every later ticket call into a deadline.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from app.main import create_app
from app.settings import Settings
from tests.chaos.conftest import fixed_runtime

pytestmark = pytest.mark.chaos


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


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_endpoint_answers_as_documented_and_never_5xx(case):
    """Positive and negative cases: never a 5xx; every body matches its documented schema."""
    case.call_and_validate(
        checks=[not_a_server_error, response_schema_conformance, content_type_conformance]
    )
