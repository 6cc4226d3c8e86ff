# sy-tools: every target sets up its own virtualenv first, so a fresh clone needs only
# python3 (>= 3.11) and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/sy-tools validate london
	$(BIN)/sy-tools map info london

test: $(STAMP)
	$(BIN)/python -m pytest


clean:
	rm -rf $(VENV) build *.egg-info demo-out
