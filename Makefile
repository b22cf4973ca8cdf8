# The two commands a newcomer needs: `make demo` and `make test`.
# Everything else here is what those two call.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install system-deps test demo hall-demo bench clean

## install: create .venv/ with the project and its dev dependencies (idempotent)
install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## system-deps: Debian packages the tests drive (Chromium, socat, gcc); installs only what is missing
system-deps:
	scripts/system-deps.sh

## test: everything the tests need, then every test
test: install system-deps
	$(PY) -m pytest -q

## demo: a whole simulated table, served on http://127.0.0.1:8000
demo: install
	$(VENV)/bin/belote-table demo

## hall-demo: a tournament hall of 12 simulated tables playing two rounds, on http://127.0.0.1:8080/hall
hall-demo: install system-deps
	$(VENV)/bin/belote-table hall demo --instance var/hall-demo --port $(or $(PORT),8080)

## bench: the benchmarks, each printed side by side with its peers
bench: install
	$(PY) -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
