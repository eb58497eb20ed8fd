# The project's entry points. `make demo` runs the main job on a real game; `make test` runs every test (what CI
# runs); `make check` is the quick loop: the linters and the tests that need no database, corpus, Java or browser.
# Both create the virtual environment on first use (Python 3.10+, Java 17+ and Maven must be installed).

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.graphmem-installed

.PHONY: setup demo test check bench lint clean browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# The main job on a real game: what Parker (a faithful) remembers about Riley (the traitor) at the end of 433y9yyp.
DEMO_GAME := examples/traitors-llm/433y9yyp
# PORT=N starts the local Neo4j on another Bolt port (default 7687); later commands find it through its state file.
PORT ?=
demo: setup
	$(BIN)/graphmem neo4j start $(if $(PORT),--port $(PORT))
	$(BIN)/graphmem init
	$(BIN)/graphmem ingest $(DEMO_GAME)
	$(BIN)/graphmem recall --game 433y9yyp --player Parker --topic Riley

# Every benchmark against a throw-away local Neo4j; the table goes to stdout, JSON to bench/results/latest.json.
bench: setup
	$(BIN)/python -m bench.run

# Every test, on one pytest-xdist worker per core (each with its own local Neo4j; none with NEO4J_URI set, see
# tests/conftest.py): the tests that read the ingested real games stay together on one worker and start first.
test: setup browser
	$(BIN)/python -m pytest -n auto --dist loadgroup --no-loadscope-reorder

# The quick loop, under 2 minutes on two cores: `make lint`, then the unit tests but those marked neo4j or slow (a
# whole corpus of real games, the embedding model, Java and Maven, a wheel build, a browser). `make test` runs them.
check: lint
	$(BIN)/python -m pytest tests/unit -m "not neo4j and not slow"

# mypy (strict, on graphmem/, tests/, bench/ and examples/), ruff on everything, and the import contracts of
# pyproject.toml (layers, no cycles). .ci/run runs it before the tests.
lint: setup
	$(BIN)/mypy
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# Headless Chromium for the page tests (tests/e2e/test_viz_browser.py): Debian's package, installed when missing.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium chromium-driver; }
	@chromium --version

clean:
	rm -rf $(VENV) build dist docker/neo4j-local/target
