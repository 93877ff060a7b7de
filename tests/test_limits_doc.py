"""docs/limits.md's table is the code's: every bold number of its "limit" column is the value of the constant its
"constant" column names, in the same order, and every named constant exists (issue 34: the table said 20 MB, 10,000
segments, 6 systems and 20,000,000 draws where the code allowed 40 MB, 20,000, 10 and 200,000,000)."""
from __future__ import annotations

import ast
import importlib
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "limits.md"
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_NAME = re.compile(r"`([^`]+)`")
_NUMBER = re.compile(r"^(\d{1,3}(?:,\d{3})*|\d+)(?:\s*(KB|MB|GB))?$")
_UNITS = {None: 1, "KB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000}


def table_rows(text: str) -> list[list[str]]:
    """The cells of the first table after its header (a ``\\|`` inside a cell is not a separator)."""
    rows, seen_header = [], False
    for line in text.splitlines():
        if not line.startswith("|"):
            if seen_header and rows:
                break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if cells[:4] == ["where", "what", "limit", "constant"]:
            seen_header = True
            continue
        if seen_header and not set("".join(cells)) <= set("-: "):
            rows.append(cells)
    return rows


def number(text: str) -> int:
    m = _NUMBER.match(text.strip())
    assert m, f"a bold limit must be a number (e.g. 200,000 or 40 MB), got {text!r}"
    return int(m.group(1).replace(",", "")) * _UNITS[m.group(2)]


def _config(key: str):
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    section, name = key.split(".", 1)
    assert name in cfg.get(section, {}), f".streamlit/config.toml has no {key}"
    return cfg[section][name]


def _module_attr(dotted: str):
    """(module, value) of ``pkg.module.attr.attr``: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            mod = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        value = mod
        for attr in parts[k:]:
            assert hasattr(value, attr), f"{dotted}: {'.'.join(parts[:k])} has no {attr}"
            value = getattr(value, attr)
        return mod, value
    raise AssertionError(f"{dotted}: no such module")


def resolve(names: list[str]) -> list:
    """The value of each name of a "constant" cell (see the module's docstring)."""
    values, module = [], None
    for name in names:
        if name.startswith(".streamlit/config.toml:"):
            values.append(_config(name.split(":", 1)[1]))
            continue
        base, _, key = name.partition("[")
        if "." in base:
            module, value = _module_attr(base)
        else:
            assert module is not None, f"{name}: the first name of a cell needs its module"
            assert hasattr(module, base), f"{module.__name__} has no {base}"
            value = getattr(module, base)
        if key:
            value = value[ast.literal_eval(key.rstrip("]"))]
        values.append(value)
    return values


def _numeric(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


ROWS = table_rows(DOC.read_text("utf-8"))


def test_the_table_is_found_and_every_row_names_its_constants():
    assert len(ROWS) > 30
    for cells in ROWS:
        assert len(cells) == 4 and _NAME.findall(cells[3]), cells


@pytest.mark.parametrize("cells", ROWS, ids=[f"{c[0]} | {c[1]}"[:60] for c in ROWS])
def test_every_stated_number_is_its_constants_value(cells):
    limit, names = cells[2], _NAME.findall(cells[3])
    values = resolve(names)
    numbers = [v for v in values if _numeric(v)]
    stated = [number(b) for b in _BOLD.findall(limit)]
    assert stated == numbers, (f"{cells[0]} | {cells[1]}: the bold numbers {stated} are not the values {numbers} of "
                               f"{', '.join(n for n, v in zip(names, values) if _numeric(v))}")


def test_the_checker_finds_a_wrong_number_and_a_missing_constant():
    bad = ("| where | what | limit | constant |\n|---|---|---|---|\n"
           "| x | y | **20 MB** | `explainer.ui.corpus.common.PAGE_MAX_BYTES` |\n"
           "| x | z | **5** | `explainer.text.NO_SUCH_LIMIT` |\n")
    wrong, missing = table_rows(bad)
    with pytest.raises(AssertionError, match="20000000"):
        test_every_stated_number_is_its_constants_value(wrong)
    with pytest.raises(AssertionError, match="NO_SUCH_LIMIT"):
        test_every_stated_number_is_its_constants_value(missing)
