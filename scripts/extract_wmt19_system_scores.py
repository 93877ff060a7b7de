"""Write explainer/attacks/data/wmt19_system_scores.tsv from the WMT19 system-level score files that Mathur, Baldwin &
Cohn (2020) publish with "Tangled up in BLEU" (https://github.com/nitikam/tangled, commit
1d50a33968ea414823ee61b3ef633f2e3afc478c, data/wmt19_sys_scores/DA-newstest2019-*-sys-nohy-scores.csv).

Usage: python scripts/extract_wmt19_system_scores.py DIR > explainer/attacks/data/wmt19_system_scores.tsv

Each kept row: the language pair, the system, its WMT19 direct-assessment score (HUMAN: the mean standardized z
score, human translations left out: "nohy") and its sacreBLEU BLEU and chrF as the WMT19 metrics task computed them
(columns sacreBLEU-BLEU, on 0-1, and sacreBLEU-chrF), copied as they are written (no rounding).
"""
from __future__ import annotations

import sys
from pathlib import Path

KEEP = ("HUMAN", "sacreBLEU-BLEU", "sacreBLEU-chrF")


def main(folder: str) -> None:
    print("lp\tsystem\thuman_z\tsacrebleu_bleu\tsacrebleu_chrf")
    for path in sorted(Path(folder).glob("DA-newstest2019-*-sys-nohy-scores.csv")):
        lines = path.read_text(encoding="utf-8").split("\n")
        head = lines[0].split()
        idx = [head.index(k) for k in KEEP]          # the first column of that name ("LP" is also a metric)
        for line in lines[1:]:
            cells = line.split()
            if cells:
                print("\t".join([cells[0], cells[1]] + [cells[i] for i in idx]))


if __name__ == "__main__":
    main(sys.argv[1])
