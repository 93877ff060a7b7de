"""The Moses BLEU scripts: ``multi-bleu.perl``, ``multi-bleu-detok.perl`` and ``mteval-v13a.pl``.

Reference: moses-smt/mosesdecoder@3445289 (2025-02-03), ``scripts/generic/`` (docs/dialects-moses.md). The
scripts cannot run here; their numbers are checked against golden vectors recorded from them.

What is specific to the scripts lives here; n-gram counting and clipping are the shared algorithm's:

* ``text``: how the scripts read and tokenize text (Perl lowercasing, whitespace, UTF-8 reading; sacreBLEU's
  tokenizer classes where the Perl is the same code);
* ``scripts``: their reference-length rules, precision/smoothing/brevity-penalty arithmetic (in the scripts' own
  order of floating-point operations, so full-precision values agree to the last bit), printed lines, and the
  inputs on which Perl dies;
* ``dialects``: the ``multi-bleu`` and ``mteval`` dialect policies;
* ``runs``: whole runs of a script on a corpus, as the script reports them.
"""
from explainer.bleu.moses.dialects import MtevalDialect, MultiBleuDialect
from explainer.bleu.moses.runs import run_mteval, run_multibleu
from explainer.bleu.moses.scripts import (
    MAX_ORDER,
    MOSES_VERSION,
    MtevalScore,
    MultiBleuScore,
    NotExpressible,
    ScriptDeath,
    check_expressible,
    mteval_printed,
    mteval_ref_length,
    mteval_score,
    mteval_segment_score,
    multibleu_ref_length,
    multibleu_score,
)
from explainer.bleu.moses.text import (
    PERL_UNI_WS,
    ascii_lower,
    detok_tokenize,
    mteval_tokenize,
    multibleu_tokenize,
    perl_lc,
    sgml_escape,
    strict_utf8_read,
)

__all__ = [
    "MOSES_VERSION", "MAX_ORDER", "ScriptDeath", "NotExpressible", "PERL_UNI_WS",
    "multibleu_tokenize", "detok_tokenize", "mteval_tokenize", "perl_lc", "ascii_lower", "strict_utf8_read",
    "multibleu_ref_length", "mteval_ref_length",
    "MultiBleuScore", "multibleu_score", "MtevalScore", "mteval_score", "mteval_segment_score",
    "check_expressible", "sgml_escape", "mteval_printed", "run_multibleu", "run_mteval",
    "MultiBleuDialect", "MtevalDialect",
]
