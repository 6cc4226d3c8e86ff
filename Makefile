# sy-tools: every target sets up its own virtualenv first, so a fresh clone needs only
# python3 (>= 3.11) and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench install clean

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
	$(BIN)/sy-tools cordon examples/in-progress.json --time-limit 5
	$(BIN)/sy-tools cordon --around 83 --detectives Red=100,Blue=114,Green=82 --moves 2 --mrx-tickets taxi=4,bus=0,underground=0,black=0
	$(BIN)/sy-tools moves examples/in-progress.json --at 4
	$(BIN)/sy-tools solve --around 154 --detectives Red=185,Blue=130,Green=168 --move-number 3 --mrx-tickets taxi=4,bus=3,underground=3,black=0,double=0
	$(BIN)/sy-tools advise examples/in-progress.json --at 4 --top 2
	mkdir -p demo-out
	rm -f demo-out/game.txt demo-out/game.mrx.txt
	$(BIN)/sy-tools play demo-out/game.txt --new --detectives Red=13,Blue=26,Green=29 --mrx-start 50 \
	    --mrx-log demo-out/game.mrx.txt < examples/play-session.txt
	$(BIN)/sy-tools simulate -n 2000 --seed 1 --mrx-policy greedy --detective-policy greedy --out demo-out/results.csv
	$(BIN)/sy-tools heatmap examples/in-progress.json -o demo-out/possible.png
	$(BIN)/sy-tools heatmap examples/in-progress.json --layer history -o demo-out/history.png
	$(BIN)/sy-tools heatmap examples/in-progress.json --layer history --panels -o demo-out/history-panels.png
	$(BIN)/sy-tools heatmap examples/in-progress.json --layer coverage -o demo-out/coverage.png
	$(BIN)/sy-tools heatmap examples/in-progress.json --layer cordon --round 7 --moves 2 -o demo-out/cordon.png
	$(BIN)/sy-tools heatmap examples/in-progress.json --layer reach -o demo-out/reach-mrx.png
	$(BIN)/sy-tools heatmap --layer reach --from 13 --piece-tickets taxi=10,bus=8,underground=4 -o demo-out/reach.png
	$(BIN)/sy-tools heatmap --layer winrate demo-out/results.csv -o demo-out/winrate.png
	$(BIN)/sy-tools heatmap examples/capture.json --layer history -o demo-out/history-full.png
	$(BIN)/sy-tools heatmap examples/capture.json --layer story --size 8x6 -o demo-out/story.gif
	@echo "heatmaps written to demo-out/"

lint: $(STAMP)
	$(BIN)/ruff check sy_tools tests benchmarks tools
	$(BIN)/mypy

# two workers, each test file on one of them (its tests keep their order and module fixtures)
test: lint
	$(BIN)/python -m pytest -n 2 --dist loadfile

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info demo-out
