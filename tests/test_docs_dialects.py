"""The docs' lists of dialects are the registries': the README's dialect table names every registered dialect of
every registered family, under the family's label, and no dialect that is not registered."""
from __future__ import annotations

import re

from explainer.families import FAMILIES
from tests.conftest import ROOT


def _readme_rows() -> dict[str, set[str]]:
    """family label -> the dialect names (in backticks) of the README's "## Dialects" table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Dialects", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("metric", "") or set(cells[0]) <= set("-: "):
            continue
        out.setdefault(cells[0], set()).update(re.findall(r"`([^`]+)`", cells[1]))
    return out


def test_the_readme_lists_every_registered_dialect_and_no_other():
    rows = _readme_rows()
    for name in FAMILIES:
        fam = FAMILIES[name]
        assert fam.label in rows, f"the README's dialect table has no row for {fam.label}"
        assert rows[fam.label] == set(fam.dialect_names()), (fam.label, rows[fam.label], fam.dialect_names())
    assert set(rows) <= {FAMILIES[n].label for n in FAMILIES}, set(rows)


def test_the_check_reads_the_table():
    assert "sacrebleu" in _readme_rows()["BLEU"]
