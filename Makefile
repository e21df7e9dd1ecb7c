# The two commands a new user types: `make run` and `make test`. Each installs what it needs:
# `make run` the runtime pins only (requirements.txt), `make test` those plus the test and
# tooling pins (requirements-dev.txt) and the programs the suite drives (.ci/install-test-tools:
# Debian's chromium, CJK fonts, promtool and kubectl, through apt-get when run as root).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check
RUNTIME := $(VENV)/.runtime-$(shell cksum requirements.txt | cut -d' ' -f1)
DEV := $(VENV)/.dev-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test tools lint bench wheel clean

$(RUNTIME): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements.txt
	@rm -f $(VENV)/.runtime-* && touch $(RUNTIME)

$(DEV): requirements.txt requirements-dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements.txt -r requirements-dev.txt
	@rm -f $(VENV)/.runtime-* $(VENV)/.dev-* && touch $(RUNTIME) $(DEV)

run: $(RUNTIME)  ## serve the API on 127.0.0.1:8000 (`make run PORT=8123`) on the embedded default
	$(PY) -m app serve --host $(HOST) --port $(PORT)

tools:  ## chromium, fonts-wqy-zenhei, promtool, kubectl: installed when missing, or the command to run
	@bash .ci/install-test-tools

test: $(DEV) tools  ## the whole suite; starts (and stops) its own throwaway redis-server
	$(PY) -m pytest -q -p no:cacheprovider

lint: $(DEV)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

bench: $(DEV)
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

wheel: $(DEV)  ## dist/railtrip-<version>-py3-none-any.whl (what the image installs)
	$(PY) -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation -w dist .

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist *.egg-info
