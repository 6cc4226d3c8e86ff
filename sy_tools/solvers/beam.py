"""How wide the detectives' search may go: a light module, so the CLI can say it in its help
without importing the search (:mod:`sy_tools.solvers.belief`)."""

from __future__ import annotations

#: At most this many joint moves are fully evaluated (memory and time bound).
MAX_CANDIDATES = 4000

#: A possible set of at most this many stations (as in the rounds after he is shown) is cheap
#: to score, and the catches come there: the search weighs :data:`SMALL_SET_WIDTH` times the
#: joint moves it is given (measured 2026-12-03 over 1,500 self-play games: the section "A wider
#: search where his set is small" of docs/benchmarks.md in git, before the page became a results page).
SMALL_SET = 8
SMALL_SET_WIDTH = 9
