# The project's entry points. `make demo` runs the main job on a real game; `make test` runs every test.
# Both create the virtual environment on first use (Python 3.10+, Java 17+ and Maven must be installed).

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.graphmem-installed

.PHONY: setup demo test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/graphmem neo4j start
	$(BIN)/graphmem init

test: setup
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build dist docker/neo4j-local/target
