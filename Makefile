# The two commands a newcomer needs: `make demo` and `make test`.
# Everything else here is what those two call.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SOLVER := referee/_solver_core.so.1

.PHONY: install system-deps test demo hall-demo bench firmware flash clean

## install: create .venv/ with the project and its dev dependencies, and build the solver's C core (idempotent)
install: $(STAMP) $(SOLVER)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The double-dummy solver's compiled core (referee/solver_c.py loads it; without it the solver runs in Python)
$(SOLVER): referee/solver_core.c
	gcc -std=c99 -O2 -Wall -Wextra -Wpedantic -Werror -shared -fPIC -o $@ $<

## system-deps: Debian packages the tests drive (Chromium, socat, gcc, the AVR toolchain, libsimavr);
## installs only what is missing
system-deps:
	scripts/system-deps.sh

## test: everything the tests need, then every test
test: system-deps install
	$(PY) -m pytest -q

## firmware: the Arduino Mega 2560's firmware (build/firmware/firmware.elf, .hex) and its simulator
## (mega2560-sim); prints flash and RAM use, the stack measured on a simulated busy table
firmware: system-deps
	$(MAKE) --no-print-directory -C firmware_bridge/firmware BUILD=$(CURDIR)/build/firmware all report

## flash: write it to a Mega 2560 over USB with avrdude: make flash PORT=/dev/ttyACM0
# PORT is the serial device here (default /dev/ttyACM0) and the web port for demo and hall-demo.
flash: firmware
	$(MAKE) --no-print-directory -C firmware_bridge/firmware BUILD=$(CURDIR)/build/firmware flash \
		PORT=$(or $(filter /dev/%,$(PORT)),/dev/ttyACM0)

## demo: a whole simulated table, served on http://127.0.0.1:8000 (another port: make demo PORT=8080)
demo: install
	$(VENV)/bin/belote-table demo $(if $(PORT),--port $(PORT))

## hall-demo: a tournament hall of 12 simulated tables playing two rounds, on http://127.0.0.1:8080/hall
hall-demo: install system-deps
	$(VENV)/bin/belote-table hall demo --instance var/hall-demo --port $(or $(PORT),8080)

## bench: the benchmarks, each printed side by side with its peers
bench: install
	$(PY) -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis $(SOLVER)
