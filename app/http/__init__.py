"""The HTTP face: routers that translate HTTP to the use cases (app/usecases) and back, and the
middleware in front of them.

    request ─ ObserveRequests (app/observability) ─ CORS ─ access gate ─ body limits ─ router
                 request id, log line, metrics, span   keys, quotas      size, depth
"""
