"""python -m benchmarks [NAME ...]: run the benchmarks and print ratios."""

from __future__ import annotations

import sys
import time


def main(argv: list[str]) -> None:
    from . import bench_possible

    benches = {"possible": bench_possible.run}
    try:
        from . import bench_cordon

        benches["cordon"] = bench_cordon.run
    except ImportError:
        pass
    try:
        from . import bench_solve

        benches["solve"] = bench_solve.run
    except ImportError:
        pass
    try:
        from . import bench_heatmap

        benches["heatmap"] = bench_heatmap.run
    except ImportError:
        pass
    from . import bench_simulate

    benches["simulate"] = bench_simulate.run
    try:
        from . import bench_advise

        benches["advise"] = bench_advise.run
    except ImportError:
        pass
    try:
        from . import bench_web

        benches["web"] = bench_web.run
    except ImportError:
        pass
    from . import bench_limits

    benches["limits"] = bench_limits.run
    from . import bench_puzzles

    benches["puzzles"] = bench_puzzles.run
    try:
        from . import bench_env

        benches["env"] = bench_env.run
    except ImportError:
        pass
    from . import strength

    benches["strength"] = strength.run
    from . import levels

    benches["levels"] = levels.run
    chosen = argv or list(benches)
    for name in chosen:
        t = time.perf_counter()
        for line in benches[name]():
            print(line, flush=True)
        print(f"  ({time.perf_counter() - t:.1f} s)\n", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
