"""The BLEU command line's generic flags, read both ways through the dialects' own tables.

Each dialect class declares which generic flag sets which of its options (``BleuDialect.cli_flags``; a bool
smoothing also its ``--smooth`` words, ``smooth_words``). ``python -m explainer bleu`` reads flags to options
(``--smooth method1`` is NLTK's ``smoothing``, sacreBLEU's ``smooth_method``); the dialect comparison and
reproduce read options to flags (``option_argv``, through ``BleuDialect.cli_argv``: the arguments that give a
configuration, which the tests run through the command line). An option without a flag is written
``-o NAME=VALUE`` (``explainer.options.format_value``: read back unchanged).
"""
from __future__ import annotations

from typing import Any, Mapping

from explainer.options import format_value

__all__ = ["FLAGS", "SWITCHES", "flag_name", "flag_table", "option_argv", "options_from_flags"]

#: the generic flags (argparse dests), in the order the command line reads them
FLAGS = ("tokenize", "lowercase", "smooth", "smooth_value", "max_order", "effective_order", "api", "weights",
         "auto_reweigh")

#: flags without a value: (flag when True, flag when False or None if False has no flag)
SWITCHES: dict[str, tuple[str, str | None]] = {
    "lowercase": ("--lowercase", None),
    "auto_reweigh": ("--auto-reweigh", None),
    "effective_order": ("--effective-order", "--no-effective-order"),
}


def flag_name(flag: str) -> str:
    """The command-line spelling of a flag (``smooth_value`` -> ``--smooth-value``)."""
    return "--" + flag.replace("_", "-")


def flag_table(dialect_classes) -> dict[str, dict[str, str]]:
    """generic flag -> {dialect: the option it sets}, over the given dialect classes (for messages and tests)."""
    classes = list(dialect_classes)
    return {flag: {c.name: c.cli_flags[flag] for c in classes if flag in c.cli_flags} for flag in FLAGS}


def _flag_for(cls: type, option: str) -> str | None:
    for flag, opt in cls.cli_flags.items():
        if opt == option:
            return flag
    return None


def option_argv(cls: type, options: Mapping[str, Any]) -> list[str]:
    """The ``python -m explainer bleu`` arguments that set ``options`` for the dialect class ``cls``: the generic
    flag where its table has one, ``-o NAME=VALUE`` otherwise (options in name order; None = the default, left
    out)."""
    argv: list[str] = []
    for name in sorted(options):
        v = options[name]
        if v is None:
            continue
        flag = _flag_for(cls, name)
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
        elif flag == "smooth" and cls.smooth_words:
            words = cls.smooth_words
            argv += [flag_name(flag), next(k for k, t in words.items() if t == ("true" if v else "false"))]
        else:
            argv += [flag_name(flag), format_value(v)]
    return argv


def options_from_flags(cls: type, flags: Mapping[str, Any], all_classes=()) -> dict:
    """The options of the dialect class ``cls`` that the generic flags given (``flags``: flag -> value, None =
    not given) set, through its table (``cli_flags``, ``smooth_words``, ``flag_options``). ValueError with a
    message for the user for a flag that does not apply (naming the dialects of ``all_classes`` it applies to)."""
    dialect = cls.name
    opts: dict = {}
    for flag in FLAGS:
        value = flags.get(flag)
        if value is None:
            continue
        option = cls.cli_flags.get(flag)
        if option is None:
            extra = cls.flag_options(flag, value)
            if extra is None:
                raise ValueError(f"--{flag.replace('_', '-')} does not apply to the {dialect} dialect "
                                 f"(it applies to: {', '.join(flag_table(all_classes)[flag])})")
            opts.update(extra)
            continue
        if flag == "smooth" and cls.smooth_words:
            v = cls.smooth_words.get(str(value).lower())
            if v is None:
                raise ValueError(f"--smooth {value!r} is not a {dialect} smoothing; {dialect} accepts: "
                                 f"{', '.join(cls.smooth_words)}")
            value = v
        opts[option] = value
    return opts
