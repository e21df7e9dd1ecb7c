# railtrip's image: the wheel and its pinned runtime dependencies in one virtual environment on a
# slim Python, served as a non-root user. `docker build -t railtrip .`, then
# `docker run -p 8000:8000 railtrip` (the embedded default) or with `--env-file` (deploy/env/).
#
# Two stages: `build` makes the wheel and the venv; the final stage copies only the venv (no
# compiler, no pip or setuptools in it, no sources beside the wheel, no tests). The same steps
# are run outside a container by tests/deploy/test_image_steps.py (wheel, fresh venv, serve,
# /readyz and this HEALTHCHECK's command).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
WORKDIR /src
# The pinned runtime dependencies first: this layer is rebuilt only when they change.
COPY requirements.txt ./
RUN python -m venv /opt/railtrip \
    && /opt/railtrip/bin/pip install -r requirements.txt
# pyproject reads the version from app/__init__.py and both requirements files.
COPY pyproject.toml README.md LICENSE requirements-dev.txt ./
COPY app ./app
COPY sources ./sources
COPY rules ./rules
RUN pip wheel --no-deps --wheel-dir /dist . \
    && /opt/railtrip/bin/pip install --no-deps /dist/railtrip-*.whl \
    && /opt/railtrip/bin/pip uninstall --yes pip setuptools

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="railtrip" \
      org.opencontainers.image.description="Plain-language travel requests to itineraries from live train-ticket data" \
      org.opencontainers.image.licenses="MIT"
RUN groupadd --system --gid 10001 railtrip \
    && useradd --system --uid 10001 --gid railtrip --home-dir /home/railtrip --create-home \
       --shell /usr/sbin/nologin railtrip
COPY --from=build /opt/railtrip /opt/railtrip
# Bytecode was compiled at install; the venv is read-only to the user (a read-only root file
# system works), and the station-list cache (RAILTRIP_STATIONS_CACHE_PATH, relative) lands in the home.
ENV PATH=/opt/railtrip/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
USER 10001:10001
WORKDIR /home/railtrip
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
ENTRYPOINT ["railtrip"]
# X-Forwarded-For is believed only from RAILTRIP_TRUSTED_PROXIES (default none): set it to the
# proxy's address or network (compose.yaml does) or every client shares the proxy's quota.
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
