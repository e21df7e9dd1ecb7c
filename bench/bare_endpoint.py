"""The control for `cache_hit.py`: a bare FastAPI endpoint answering a fixed JSON body.

It serves, at the same path, the very bytes railtrip answered for the warmed query (read from
the file named by `BENCH_BODY_FILE`), so the two servers differ only in railtrip's own work:
middleware, parameter parsing, station resolution, cache lookup and serialisation.

    BENCH_BODY_FILE=body.json uvicorn bare_endpoint:app --app-dir bench --no-access-log
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import FastAPI, Response

BODY = Path(os.environ["BENCH_BODY_FILE"]).read_bytes()

app = FastAPI()


@app.get("/v1/tickets")
async def tickets() -> Response:
    """The recorded body, as it is."""
    return Response(BODY, media_type="application/json")
