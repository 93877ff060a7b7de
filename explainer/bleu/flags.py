"""The BLEU command line's generic flags and the dialect option each one sets: one table, read both ways.

``python -m explainer bleu`` reads it from flags to options (``--smooth method1`` is NLTK's ``smoothing``,
sacreBLEU's ``smooth_method``); the dialect comparison reads it from options to flags (``option_argv``: the
arguments that give a configuration, which the tests run through the command line). An option without a flag
is written ``-o NAME=VALUE`` (``explainer.options.format_value``: read back unchanged).
"""
from __future__ import annotations

from typing import Any, Mapping

from explainer.options import format_value

__all__ = ["FLAG_TO_OPTION", "BOOL_SMOOTH", "SWITCHES", "flag_name", "option_argv"]

#: generic flag (argparse dest) -> {dialect: the option it sets}
FLAG_TO_OPTION: dict[str, dict[str, str]] = {
    "tokenize": {"sacrebleu": "tokenize", "torchmetrics-sacrebleu": "tokenize"},
    "lowercase": {"sacrebleu": "lowercase", "multi-bleu": "lowercase", "torchmetrics-sacrebleu": "lowercase"},
    "smooth": {"sacrebleu": "smooth_method", "nltk": "smoothing", "hf-evaluate": "smooth", "mteval": "smoothing",
               "torchmetrics": "smooth", "torchmetrics-sacrebleu": "smooth"},
    "smooth_value": {"sacrebleu": "smooth_value"},
    "max_order": {"sacrebleu": "max_ngram_order", "hf-evaluate": "max_order", "textbook": "max_n",
                  "torchmetrics": "n_gram", "torchmetrics-sacrebleu": "n_gram"},
    "effective_order": {"sacrebleu": "effective_order"},
    "api": {"sacrebleu": "api"},
    "weights": {"nltk": "weights"},
    "auto_reweigh": {"nltk": "auto_reweigh"},
}

#: ``--smooth`` for the dialects whose smoothing is a bool: each accepts only its own names (HF's add-one is not
#: mteval's NIST smoothing; a shared table once turned ``--dialect hf-evaluate --smooth exp`` into smooth=True).
#: The first name of each truth value is the one ``option_argv`` writes.
BOOL_SMOOTH: dict[str, dict[str, str]] = {
    "hf-evaluate": {"none": "false", "add-one": "true", "false": "false", "true": "true"},
    "mteval": {"none": "false", "exp": "true", "nist": "true", "false": "false", "true": "true"},
    "torchmetrics": {"none": "false", "add-one": "true", "false": "false", "true": "true"},
    "torchmetrics-sacrebleu": {"none": "false", "add-one": "true", "false": "false", "true": "true"},
}

#: flags without a value: (flag when True, flag when False or None if False has no flag)
SWITCHES: dict[str, tuple[str, str | None]] = {
    "lowercase": ("--lowercase", None),
    "auto_reweigh": ("--auto-reweigh", None),
    "effective_order": ("--effective-order", "--no-effective-order"),
}


def flag_name(flag: str) -> str:
    """The command-line spelling of a flag (``smooth_value`` -> ``--smooth-value``)."""
    return "--" + flag.replace("_", "-")


def _flag_for(dialect: str, option: str) -> str | None:
    for flag, table in FLAG_TO_OPTION.items():
        if table.get(dialect) == option:
            return flag
    return None


def option_argv(dialect: str, options: Mapping[str, Any]) -> list[str]:
    """The ``python -m explainer bleu`` arguments that set ``options`` for ``dialect``: the generic flag where
    the table has one, ``-o NAME=VALUE`` otherwise (options in name order; None = the default, left out)."""
    argv: list[str] = []
    for name in sorted(options):
        v = options[name]
        if v is None:
            continue
        flag = _flag_for(dialect, name)
        if flag is None:
            argv += ["-o", f"{name}={format_value(v)}"]
        elif flag in SWITCHES:
            on, off = SWITCHES[flag]
            if v:
                argv.append(on)
            elif off is not None:
                argv.append(off)
            else:
                argv += ["-o", f"{name}=false"]
        elif flag == "smooth" and dialect in BOOL_SMOOTH:
            names = BOOL_SMOOTH[dialect]
            argv += [flag_name(flag), next(k for k, t in names.items() if t == ("true" if v else "false"))]
        else:
            argv += [flag_name(flag), format_value(v)]
    return argv
