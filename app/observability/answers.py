"""What an answering endpoint replied, counted once: `railtrip_answers_total{kind}` for every
answer and `railtrip_responses_total{freshness}` for ticket-bearing ones only.

A clarifying question or a refusal carries no ticket data, so it has no freshness to report:
counting it as `unavailable` made the critical unavailable-answers alert fire on a healthy
service. Errors (4xx/5xx) on these endpoints are counted as kind="error" by the request
middleware, unless the handler already counted an answer (the precheck's 503 is a ticket
answer whose freshness is not realtime).
"""

from __future__ import annotations

from starlette.requests import Request

from app.observability.metrics import AnswerKind, Metrics

# Set in the request's scope state once a handler has counted its answer.
ANSWERED = "answered"


def count_answer(
    metrics: Metrics, request: Request, kind: AnswerKind, freshness: str | None = None
) -> None:
    """Count one answer of the request's route (labelled with its template); a `tickets`
    answer also counts under its freshness."""
    endpoint = request.scope["route"].path
    metrics.answers.labels(endpoint=endpoint, kind=kind).inc()
    if kind == "tickets":
        metrics.responses.labels(endpoint=endpoint, freshness=freshness or "unavailable").inc()
    setattr(request.state, ANSWERED, True)
