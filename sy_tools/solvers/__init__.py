"""Solvers: puzzle positions, seal tests, the CP-SAT cordon, the forced-win search, advice."""
