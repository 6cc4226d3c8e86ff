# sy-tools: every target sets up its own virtualenv first, so a fresh clone needs only
# python3 (>= 3.11) and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench install clean

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
	$(BIN)/sy-tools check examples/capture.json
	$(BIN)/sy-tools possible examples/in-progress.json --history --top 8
	$(BIN)/sy-tools cordon --around 83 --detectives Red=100,Blue=114,Green=82 --moves 2 --mrx-tickets taxi=4,bus=0,underground=0,black=0

test: $(STAMP)
	$(BIN)/python -m pytest


bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info demo-out
