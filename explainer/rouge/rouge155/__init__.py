"""ROUGE-1.5.5.pl (Chin-Yew Lin, 2005) without Perl, every step recorded (docs/dialects-rouge155.md).

==================  ==========================================================================================
``options``         the command line: ``Rouge155Options`` and ``parse_flags``
``text``            how the script reads a text: units, ``tr/A-Z/a-z/``, ``-l``/``-b``, byte-level cleanup, ``-s``,
                    ``-m`` (tokens keep their character spans)
``stem``            ``-m``: the WordNet-2.0 exception list (``data/``), then ROUGE's Porter variant
``evaluation``      one peer against its models (``evaluate``) and a corpus (``evaluate_corpus``): ROUGE-N/L/W/S/SU,
                    ``-f A``/``-f B``, 5-decimal rounding, the script's deaths
``bootstrap``       Perl's drand48 and the corpus ``Average_X`` lines with their confidence interval
``dialect``         the ``rouge155`` dialect of the ROUGE core (``explain_rouge(..., dialect="rouge155")``)
``files``           SEE / SPL / ISI / BE files, the XML config, ``-z`` lists and the printed report: a drop-in for
                    the script, ``python -m explainer.rouge.rouge155 [flags] config [systemID]``
==================  ==========================================================================================
"""
from explainer.rouge.rouge155.evaluation import (
    WLCS_DEATH,
    CorpusResult,
    Evaluation,
    MetricResult,
    PerlDeath,
    evaluate,
    evaluate_corpus,
    evaluate_texts,
)
from explainer.rouge.rouge155.options import Rouge155Options, parse_flags

__all__ = ["Rouge155Options", "parse_flags", "evaluate", "evaluate_texts", "evaluate_corpus", "Evaluation",
           "MetricResult", "CorpusResult", "PerlDeath", "WLCS_DEATH"]
