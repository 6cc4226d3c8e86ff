"""Puzzles: find capture puzzles in games, prove them unique, check, rate and publish them
(docs/puzzles.md).  :mod:`.prove` asks the forced-win search the puzzle's questions,
:mod:`.find` mines candidate positions, :mod:`.model` is the puzzle and its file,
:mod:`.check` re-proves a puzzle."""
