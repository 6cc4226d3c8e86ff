"""Self-play: policies, one game, the runner (processes, dask), statistics, result files."""
