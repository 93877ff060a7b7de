"""What the handouts share besides the steps: their file names (which name the lesson and say whose handout it
is), each step's general formula in LaTeX (for the Markdown handout; the numbers stay in the steps' own
arithmetic, taken from the trace) and what the student's sheet shows of a step. Pure (no Streamlit)."""
from __future__ import annotations

import re
import unicodedata

from explainer.teach.model import LcsGrid, Lesson, Para, Step, Table, TokenRow

__all__ = ["handout_name", "STEP_TEX", "MAX_NAME", "sheet_blocks", "sheet_checks", "is_number", "sheet_cell_given",
           "SHEET_GRID_RULE"]

MAX_NAME = 60   # characters of the lesson's name kept in a file name

#: the formula each step applies, as the textbook writes it (LaTeX, for $$ … $$ display maths)
STEP_TEX = {
    "bleu-counting": r"\mathrm{Count}(g) = \#\{\text{occurrences of } g \text{ in the candidate}\}",
    "bleu-clipping": r"\mathrm{Count}_{\mathrm{clip}}(g) = \min\Big(\mathrm{Count}(g),\ "
                     r"\max_{\text{ref } r} \mathrm{Count}_r(g)\Big)",
    "bleu-precision": r"p_n = \frac{\sum_{g \in n\text{-grams}} \mathrm{Count}_{\mathrm{clip}}(g)}"
                      r"{\sum_{g \in n\text{-grams}} \mathrm{Count}(g)}",
    "bleu-bp": r"\mathrm{BP} = \begin{cases} 1 & c > r \\ e^{\,1 - r/c} & c \le r \end{cases}",
    "bleu-score": r"\mathrm{BLEU} = \mathrm{BP} \cdot \exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)",
    "gleu-precision": r"P = \frac{\mathrm{tp}}{\mathrm{tpfp}}, \quad R = \frac{\mathrm{tp}}{\mathrm{tpfn}}, \quad "
                      r"\min(P, R) = \frac{\mathrm{tp}}{\max(\mathrm{tpfp}, \mathrm{tpfn})}",
    "gleu-bp": r"k^* = \arg\max_k \frac{\mathrm{tp}_k}{\max(\mathrm{tpfp}, \mathrm{tpfn}_k)}",
    "gleu-score": r"\mathrm{GLEU} = \frac{\sum_{\text{sentences}} \mathrm{tp}}"
                  r"{\sum_{\text{sentences}} \max(\mathrm{tpfp}, \mathrm{tpfn})}",
    "rouge-1": r"\mathrm{hits}_1 = \sum_{w} \min\big(\mathrm{Count}_{\mathrm{cand}}(w),\ "
               r"\mathrm{Count}_{\mathrm{ref}}(w)\big)",
    "rouge-prf": r"P = \frac{\mathrm{hits}}{|\mathrm{cand}|}, \quad R = \frac{\mathrm{hits}}{|\mathrm{ref}|}, "
                 r"\quad F = \frac{2PR}{P + R}",
    "rouge-lcs-table": r"L[i][j] = \begin{cases} L[i-1][j-1] + 1 & r_i = c_j \\ \max(L[i-1][j],\ L[i][j-1]) "
                       r"& \text{otherwise} \end{cases}",
    "rouge-l": r"P_{\mathrm{LCS}} = \frac{\mathrm{LCS}}{|\mathrm{cand}|}, \quad "
               r"R_{\mathrm{LCS}} = \frac{\mathrm{LCS}}{|\mathrm{ref}|}, \quad F = \frac{2PR}{P + R}",
}


def _slug(s: str) -> str:
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode("ascii").lower()
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s[:MAX_NAME].rstrip("-")


def handout_name(lesson: Lesson, *, student: bool, ext: str) -> str:
    """``bleu-rouge-<lesson>-teacher.html`` / ``…-student.md``: the lesson named by its title (a worked example,
    a preset) or, for an own text, by the first words of its candidate."""
    name = _slug(lesson.title) if lesson.title and lesson.title != "Your own text" else ""
    if not name:
        name = _slug(" ".join(lesson.candidate.split()[:6])) or "own-text"
        name = "own-text-" + name if name != "own-text" else name
    return f"bleu-rouge-{name}-{'student' if student else 'teacher'}.{ext}"


_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?(/\d+)?( = [-+]?\d+(\.\d+)?)?( %)?")


#: how the student's sheet asks to fill its empty LCS table (the HTML and the Markdown sheet)
SHEET_GRID_RULE = "Fill in row by row: equal tokens: the diagonal + 1; else the larger of above and left."


def sheet_cell_given(row: int, col: int) -> bool:
    """Whether the sheet prints an LCS cell: only the empty prefix's zeros (row or column 0); a part of a split
    table starts at a row of numbers, left empty too."""
    return row == 0 or col == 0


def is_number(v) -> bool:
    """A worked number (also one already written as text: "5/6 = 0.8333", "12.5 %")."""
    if isinstance(v, bool):
        return False
    return isinstance(v, (int, float)) or bool(_NUMBER.fullmatch(str(v).strip()))


def _to_fill(t: Table) -> Table:
    """The table with its numbers left blank: a number, or a cell that states one ("p_1 = 0.1429"), except the
    first column's words (what a row is about); the student fills it in."""
    def blank(row):
        return tuple("" if is_number(v) or (j and re.search(r"\d", str(v))) else v for j, v in enumerate(row))
    return Table(t.columns, tuple(blank(r) for r in t.rows), t.emphasis, t.caption,
                 None if t.total is None else blank(t.total))


def sheet_blocks(step: Step) -> list:
    """What the student's sheet shows of a step, without a worked number: a question's step what the question
    gives (and the step's LCS table, which the renderers draw empty); any other step its words and token rows,
    its tables with blank number cells and its LCS tables. Formulas, results, charts and the textbook's numbers
    carry the worked numbers (the answers page has them)."""
    q = step.question
    grids = [b for b in step.blocks if isinstance(b, LcsGrid)]
    if q is not None:
        return list(q.given) + grids
    keep = []
    for b in step.blocks:
        if isinstance(b, Table):
            keep.append(_to_fill(b))
        elif isinstance(b, (TokenRow, LcsGrid)) or (isinstance(b, Para) and not _has_number(b.text)):
            keep.append(b)
    return keep


_DIGITS = re.compile(r"\d+[.,/]\d|\d{2,}")


def _has_number(text: str) -> bool:
    """A sentence that states a worked number (a decimal, a fraction, a count of two digits or more)."""
    return bool(_DIGITS.search(text))


def sheet_checks(step: Step) -> list:
    """What the answers page shows beside a step's answer, to check what was filled in on the sheet: the step's
    LCS tables in full and, for a step without a question, its tables with their numbers."""
    kinds = LcsGrid if step.question is not None else (LcsGrid, Table)
    return [b for b in step.blocks if isinstance(b, kinds)]
