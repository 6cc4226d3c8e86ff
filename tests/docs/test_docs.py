"""The documentation is real: every example on every docs/*.md page (and in the README, through
test_readme.py) runs and prints what the page shows, every module path it names imports, and
what docs/rules.md says of the rules is what the engine does.

How examples are marked (docs/index.md says the same for writers):

- a ```text block whose first line starts with ``$ sy-tools`` is one or more commands (a line
  ending in ``\\`` goes on) each followed by its output; the commands run from a folder where
  ``examples/`` and ``data/`` are the repository's, and the output must match line by line, where
  a line ``...`` stands for any lines, wall times are not compared, and a cordon plan's routes may
  differ where plans tie (who moves, from where and who is on duty must match); a command ending
  in ``<<'END'`` reads the lines up to ``END`` as its standard input (a ``play`` session);
- every ```python block runs from the repository's root; a ``print(...)`` line's comment is the
  line it must print;
- every ``sy-tools`` line of a ```sh block must name options the command has (it runs with
  ``--help``);
- every ``sy_tools.x.y`` name imports from its module path (not an alias of the old layout).
"""

from __future__ import annotations

import importlib
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO

ROOT = REPO
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    body: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, with the line each starts on."""
    text = path.read_text()
    return [Block(path.name, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def command_blocks(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.lang == "text" and b.body.startswith("$ sy-tools ")]


def python_blocks(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.lang == "python"]


def sh_blocks(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.lang == "sh"]


HEREDOC = "<<'END'"


def _commands(body: str) -> list[tuple[list[str], list[str], str | None]]:
    """``[(argv after 'sy-tools', expected output lines, standard input or None)]`` of a command
    block."""
    out: list[tuple[list[str], list[str], str | None]] = []
    lines = body.rstrip("\n").splitlines()
    i = 0
    while i < len(lines):
        assert lines[i].startswith("$ sy-tools "), lines[i]
        command = lines[i][len("$ sy-tools "):]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + lines[i].strip()
        i += 1
        stdin = None
        if command.rstrip().endswith(HEREDOC):
            command = command.rstrip()[: -len(HEREDOC)]
            end = lines.index("END", i)
            stdin = "".join(ln + "\n" for ln in lines[i:end])
            i = end + 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        out.append((shlex.split(command, comments=True), expected, stdin))
    return out


_TIMED = ("solver:", "search:")


def _normalise(line: str) -> str:
    """A line without what varies from run to run: wall times (and the solver's node count)."""
    if line.startswith(_TIMED):
        return line.rsplit(",", 1)[0]
    if line.startswith("searched "):
        return "searched"
    return line


def _cordon_shape(argv: list[str], lines: list[str]) -> list[Any]:
    """A cordon plan's routes may tie (CP-SAT may return any optimal plan): keep who moves, from
    where, and who is on duty."""
    names = set()
    if "--detectives" in argv:
        names = {d.split("=")[0] for d in argv[argv.index("--detectives") + 1].split(",")}
    out: list[Any] = []
    for ln in lines:
        words = ln.split()
        if words and words[0] in names:
            out.append((words[0], words[1], words[-1] == "yes"))
        else:
            out.append(ln)
    return out


def _matches(expected: list[str], got: list[str]) -> bool:
    """Line by line; an expected line ``...`` stands for any number of lines."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(_matches(expected[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and expected[0] == got[0] and _matches(expected[1:], got[1:])


#: commands whose answer depends on finishing within ``--time-limit``
_SEARCHES = ("advise", "cordon", "solve", "heatmap")
#: what their limit becomes here: the page's examples finish in well under a second on a quiet
#: machine, but with both cores kept busy by other work a 10 s limit turned a proved cordon into
#: a different answer (a limit under 1 s on the page shows running out, and is kept)
_LOADED_LIMIT = "600"


def _unhurried(argv: list[str]) -> list[str]:
    if not argv or argv[0] not in _SEARCHES:
        return argv
    if "--time-limit" in argv:
        i = argv.index("--time-limit") + 1
        return argv if float(argv[i]) < 1 else [*argv[:i], _LOADED_LIMIT, *argv[i + 1:]]
    return [*argv, "--time-limit", _LOADED_LIMIT]


def check_command_block(block: Block, cli: Callable[..., Any]) -> None:
    for argv, expected, stdin in _commands(block.body):
        r = cli(*_unhurried(argv), input=stdin)
        assert r.exit_code in (0, 1, 3), f"{block}: sy-tools {' '.join(argv)} exited {r.exit_code}: {r.output}"
        got = [_normalise(ln) for ln in r.output.rstrip("\n").splitlines()]
        want = [_normalise(ln) for ln in expected]
        if argv[0] == "cordon":
            got, want = _cordon_shape(argv, got), _cordon_shape(argv, want)
        assert _matches(want, got), f"{block}: sy-tools {' '.join(argv)} printed:\n" + "\n".join(map(str, got))


def check_python_block(block: Block, capsys: pytest.CaptureFixture[str]) -> None:
    code = block.body
    expected = [ln.split("  # ", 1)[1] for ln in code.splitlines() if ln.startswith("print(")]
    assert len(expected) == code.count("\nprint(") + code.startswith("print("), f"{block}: a print without its line"
    capsys.readouterr()
    exec(compile(code, str(block), "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.splitlines() == expected, str(block)


def check_sh_block(block: Block, cli: Callable[..., Any]) -> None:
    for line in block.body.splitlines():
        words = shlex.split(line, comments=True)
        if not words or words[0] not in ("sy-tools", ".venv/bin/sy-tools"):
            continue
        r = cli(*words[1:], "--help")
        assert r.exit_code == 0, f"{block}: {line}: {r.output}"


@pytest.fixture
def in_examples_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder where examples/ and data/ are the repository's, and outputs land in tmp."""
    for name in ("examples", "data"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _ids(items: list[Block]) -> list[str]:
    return [str(b) for b in items]


COMMANDS = [b for p in PAGES for b in command_blocks(p)]
PYTHON = [b for p in PAGES for b in python_blocks(p)]
SH = [b for p in PAGES for b in sh_blocks(p)]


@pytest.mark.parametrize("block", COMMANDS, ids=_ids(COMMANDS))
def test_command_examples_print_what_the_page_shows(block: Block, cli, in_examples_dir) -> None:
    check_command_block(block, cli)


@pytest.mark.parametrize("block", PYTHON, ids=_ids(PYTHON))
def test_python_examples_run_as_commented(block: Block, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    check_python_block(block, capsys)


@pytest.mark.parametrize("block", SH, ids=_ids(SH))
def test_shell_examples_name_real_options(block: Block, cli) -> None:
    check_sh_block(block, cli)


def test_every_page_is_listed_in_the_index() -> None:
    index = (DOCS / "index.md").read_text()
    assert [p.name for p in PAGES if p.name != "index.md" and f"]({p.name})" not in index] == []


# ---- names -------------------------------------------------------------------------------------

NAME = re.compile(r"\bsy_tools(?:\.[A-Za-z_]\w*)+")


def resolve(dotted: str) -> Any:
    """The object a dotted name names: the longest importable module, then attributes. The old
    flat modules (aliases for one release) do not count."""
    from sy_tools._moved import MOVED

    parts = dotted.split(".")
    assert parts[1] not in MOVED, f"{dotted}: an old module name (now sy_tools.{MOVED[parts[1]][0]})"
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        for attr in parts[k:]:
            obj = getattr(obj, attr)
        return obj
    raise AssertionError(dotted)


def test_every_module_path_named_imports() -> None:
    bad = []
    for page in [*PAGES, ROOT / "README.md", ROOT / "examples" / "README.md"]:
        for name in sorted(set(NAME.findall(page.read_text()))):
            try:
                resolve(name)
            except (AssertionError, AttributeError, ImportError) as e:
                bad.append(f"{page.name}: {name}: {e}")
    assert bad == []


# ---- the rules page against the engine -----------------------------------------------------------

RULES_MD = (DOCS / "rules.md").read_text()


def _cell(value: Any) -> str:
    """A rule value as `sy-tools rules` prints it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _preset_table() -> tuple[list[str], dict[str, list[str]]]:
    start = RULES_MD.index("| field |")
    rows = [ln for ln in RULES_MD[start:].splitlines() if ln.startswith("|")]
    rows = rows[:next((i for i, r in enumerate(rows) if not r.startswith("|")), len(rows))]
    cells = [[c.strip() for c in r.strip("|").split("|")] for r in rows]
    header = cells[0]
    presets = header[1:-1]
    table = {row[0].strip("`"): row[1:1 + len(presets)] for row in cells[2:]}
    return presets, table


def test_the_preset_table_is_the_engines() -> None:
    from sy_tools.engine.rules import PRESETS, Rules

    presets, table = _preset_table()
    assert presets == list(PRESETS)
    assert list(table) == [f.name for f in fields(Rules) if f.name != "name"]
    for i, name in enumerate(presets):
        d = PRESETS[name].to_dict()
        for field_name, row in table.items():
            assert row[i] == _cell(d[field_name]), f"{name}.{field_name}: page {row[i]!r}, engine {_cell(d[field_name])!r}"


def test_the_word_choices_are_listed() -> None:
    from sy_tools.engine.rules import RULE_CHOICES

    for field_name, choices in RULE_CHOICES.items():
        line = next(ln for ln in RULES_MD.splitlines() if ln.startswith(f"| `{field_name}`"))
        assert all(f"`{c}`" in line for c in choices), field_name


def test_the_counted_fields_are_as_stated() -> None:
    from sy_tools.engine.rules import COUNTED_RULE_FIELDS, Rules

    text = " ".join(RULES_MD.split())
    sentence = text[text.index("model every field but"):]
    sentence = sentence[:sentence.index("(")]
    said = set(re.findall(r"`(\w+)`", sentence))
    assert said == {f.name for f in fields(Rules)} - COUNTED_RULE_FIELDS


def test_the_position_problem_codes_are_the_engines() -> None:
    source = (ROOT / "sy_tools" / "engine" / "position.py").read_text()
    engine = set(re.findall(r'Illegal\("([a-z-]+)"', source))
    para = RULES_MD[RULES_MD.index("`pos.problems(move)` says why"):]
    para = para[:para.index("`pos.is_legal")]
    assert set(re.findall(r"`([a-z]+(?:-[a-z]+)+|turn)`", para)) == engine


def test_the_referee_codes_on_the_records_page_exist() -> None:
    text = (DOCS / "records.md").read_text()
    section = text[text.index("Problem codes"):text.index("## The examples")]
    codes = set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", section))
    source = "\n".join(p.read_text() for p in (ROOT / "sy_tools").rglob("*.py"))
    assert codes and sorted(c for c in codes if f'"{c}"' not in source) == []


def test_the_map_codes_table_is_the_validators() -> None:
    from sy_tools.formats.map_check import CHECKS

    text = (DOCS / "maps.md").read_text()
    documented: dict[str, str] = {}
    for ln in text.splitlines():
        cells = [c.strip() for c in ln.strip("|").split("|")] if ln.startswith("| ") else []
        if len(cells) == 3 and cells[0] != "code" and not cells[0].startswith("-"):
            codes = [c.strip() for c in cells[0].split(",")]
            levels = [v.strip() for v in cells[1].split(",")]
            for j, c in enumerate(codes):
                documented[c] = levels[min(j, len(levels) - 1)]
    for code, (level, _) in CHECKS.items():
        assert documented.get(code) == level, code


# ---- figures live on the benchmarks page -----------------------------------------------------------

#: a measured figure (a 95% interval is a name, not a figure)
FIGURE = re.compile(r"(?<![\d.])(?!95% (?:CI|Wilson|interval))\d[\d.,]*\s?(?:%|x\b|ms\b|us\b|records/s|games/s)")


def _prose(text: str) -> str:
    return FENCE.sub("", text)


@pytest.mark.parametrize("page", [ROOT / "README.md", *(p for p in PAGES if p.name != "benchmarks.md")],
                         ids=lambda p: p.name)
def test_no_measured_figures_outside_the_benchmarks_page(page: Path) -> None:
    assert FIGURE.findall(_prose(page.read_text())) == []


def test_every_benchmark_section_says_where_when_and_how() -> None:
    """Each section of the results page names the machine, a date and the command that
    reproduces its figures."""
    text = (DOCS / "benchmarks.md").read_text()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    assert len(text.splitlines()) <= 260, "the results page is a page, not a diary"
    for s in sections:
        title, s = s.splitlines()[0], " ".join(s.split())
        assert "2-core machine" in s, title
        assert re.search(r"2026-\d\d-\d\d", s), title
        assert re.search(r"`(?:python -m benchmarks|sy-tools |make bench)", s), title


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=lambda p: p.name)
def test_links_to_a_section_find_it(page: Path) -> None:
    for target, anchor in re.findall(r"\]\(([\w./-]*\.md)?#([\w-]+)\)", page.read_text()):
        linked = (page.parent / target) if target else page
        headings = re.findall(r"^#+ (.+)$", _prose(linked.read_text()), flags=re.M)
        assert anchor in {_slug(h) for h in headings}, f"{page.name}: {target}#{anchor}"
