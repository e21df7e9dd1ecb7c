"""HTTP routers; each handler is a thin adapter over a service."""
