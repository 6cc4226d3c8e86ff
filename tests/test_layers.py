"""The package's architecture holds: no import cycle among sy_tools' modules (imports inside
functions count; ``if TYPE_CHECKING`` blocks do not), and data flows one way through the
layers, engine -> formats -> analysis -> solvers / selfplay -> plot -> env / play -> cli (self-play may use
the solvers, never the reverse; errors and findings are below every layer)."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import REPO

# the research environment (env) and the table session (play) sit above the pictures, below the CLI
LAYERS = ["errors", "findings", "engine", "formats", "analysis", "solvers", "selfplay", "puzzles", "plot", "env", "play", "cli"]


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in (REPO / "sy_tools").rglob("*.py"):
        parts = list(p.relative_to(REPO).with_suffix("").parts)
        pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if pkg else parts)] = (p, pkg)
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, (path, pkg) in mods.items():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                node.body = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = m.split(".") if pkg else m.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    if f"{target}.{alias.name}" in mods:
                        graph[m].add(f"{target}.{alias.name}")
                    elif target in mods:
                        graph[m].add(target)
            elif isinstance(node, ast.Import):
                graph[m] |= {a.name for a in node.names if a.name in mods}
    return graph


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_no_import_cycles():
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n, stack + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, cycles


def test_data_flows_one_way_through_the_layers():
    back = []
    for a, targets in _graph().items():
        for b in targets:
            la, lb = _layer(a), _layer(b)
            if la is None or lb is None:
                continue
            peers = {LAYERS.index("solvers"), LAYERS.index("selfplay")}
            if lb > la and not (la in peers and lb in peers and LAYERS[la] == "selfplay"):
                back.append(f"{a} -> {b}")
            if LAYERS[la] == "solvers" and LAYERS[lb] == "selfplay":
                back.append(f"{a} -> {b}")
    assert not back, back


def test_the_checks_see_the_package():
    """The two tests above would pass on an empty graph: make sure they read real imports."""
    graph = _graph()
    assert len(graph) > 60
    assert "sy_tools.engine.board" in graph["sy_tools.engine.position"]
    assert "sy_tools.analysis.referee" in graph["sy_tools.analysis.record_position"]  # (inside a function)
