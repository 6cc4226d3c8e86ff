"""Benchmarks: `make bench` (python -m benchmarks).  Each prints ratios against a plain baseline
measured in the same run, never absolute goals."""
