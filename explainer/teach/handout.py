"""What the handouts share besides the steps: their file names (which name the lesson and say whose handout it
is) and each step's general formula in LaTeX (for the Markdown handout; the numbers stay in the steps' own
arithmetic, taken from the trace). Pure (no Streamlit)."""
from __future__ import annotations

import re
import unicodedata

from explainer.teach.model import Lesson

__all__ = ["handout_name", "STEP_TEX", "MAX_NAME"]

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
