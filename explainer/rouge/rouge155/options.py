"""ROUGE-1.5.5.pl's command line: the options that change numbers (:class:`Rouge155Options`) and the flags that
set them (:func:`parse_flags`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from explainer.rouge.rouge155.text import TokenOptions

__all__ = ["Rouge155Options", "parse_flags", "fmt_num"]


@dataclass(frozen=True)
class Rouge155Options:
    """The command-line options that change numbers. Defaults = the golden files' option set
    ``-n 4 -w 1.2 -2 4 -U -f A`` (with no option the script computes ROUGE-L only:
    ``Rouge155Options(n=0, w=None, skip=None, unigrams="")``)."""

    n: int = 4  # -n: ROUGE-1..N (0 = none)
    rouge_l: bool = True  # ROUGE-L unless -x
    w: float | None = 1.2  # -w weight (None = no ROUGE-W)
    w_label: str | None = None  # how the weight was written on the command line ("1.2"), used in the label
    skip: int | None = 4  # -2 max gap (None = no ROUGE-S; < 0 = unlimited, label "*")
    skip_label: str | None = None
    unigrams: str = "U"  # "" (S only), "u" (SU only), "U" (S and SU)
    stem: bool = False  # -m
    remove_stopwords: bool = False  # -s
    length_limit: int = 0  # -l
    byte_limit: int = 0  # -b
    mode: str = "A"  # -f A (pool the references) | B (best reference)
    alpha: float = 0.5  # -p
    confidence: float = 95.0  # -c
    resamples: int = 1000  # -r
    counting: int = 0  # -t 0 (per-unit average) | 1 (pooled tokens) | 2 (raw counts)

    def __post_init__(self):
        if self.mode not in ("A", "B"):
            raise ValueError("-f must be A (pool the references) or B (best reference)")
        if not 0 <= self.alpha <= 1:
            raise ValueError("Relative importance of ROUGE recall and precision has to be between 0 and 1 "
                             "inclusively (-p).")
        if self.w is not None and not self.w > 0:
            raise ValueError("ROUGE-W weight factor must greater than 0 (-w).")
        if not 0 <= self.confidence <= 100:
            raise ValueError("Confidence interval should be within 0 and 100 (-c).")
        if self.length_limit and self.byte_limit:
            raise ValueError("Please specify length limit in words or bytes but not both (-l / -b).")
        if self.n < 0:
            raise ValueError("-n must be a positive n-gram size")
        if self.unigrams not in ("", "u", "U"):
            raise ValueError("unigrams must be '', 'u' or 'U'")
        if self.counting not in (0, 1, 2):
            raise ValueError("-t must be 0, 1 or 2")
        if self.resamples < 1:
            raise ValueError("-r must be at least 1")

    @property
    def token_options(self) -> TokenOptions:
        return TokenOptions(stem=self.stem, remove_stopwords=self.remove_stopwords,
                            length_limit=self.length_limit, byte_limit=self.byte_limit)

    @property
    def w_name(self) -> str:
        return f"ROUGE-W-{self.w_label if self.w_label is not None else fmt_num(self.w)}"

    def skip_names(self) -> list[tuple[str, bool]]:
        """(label, with unigrams) in the order the script prints them."""
        if self.skip is None:
            return []
        d = "*" if self.skip < 0 else (self.skip_label if self.skip_label is not None else str(self.skip))
        if self.unigrams == "u":
            return [(f"ROUGE-SU{d}", True)]
        if self.unigrams == "U":
            return [(f"ROUGE-S{d}", False), (f"ROUGE-SU{d}", True)]
        return [(f"ROUGE-S{d}", False)]

    def metric_names(self) -> list[str]:
        names = [f"ROUGE-{k}" for k in range(1, self.n + 1)]
        if self.rouge_l:
            names.append("ROUGE-L")
        if self.w is not None:
            names.append(self.w_name)
        names.extend(n for n, _ in self.skip_names())
        return names

    def flags(self) -> list[str]:
        """The equivalent ROUGE-1.5.5.pl flags (for the trace and the docs)."""
        out: list[str] = []
        if self.n:
            out += ["-n", str(self.n)]
        if not self.rouge_l:
            out.append("-x")
        if self.w is not None:
            out += ["-w", self.w_label or fmt_num(self.w)]
        if self.skip is not None:
            out += ["-2", self.skip_label or str(self.skip)]
            if self.unigrams:
                out.append("-" + self.unigrams)
        if self.stem:
            out.append("-m")
        if self.remove_stopwords:
            out.append("-s")
        if self.length_limit:
            out += ["-l", str(self.length_limit)]
        if self.byte_limit:
            out += ["-b", str(self.byte_limit)]
        out += ["-f", self.mode]
        if self.alpha != 0.5:
            out += ["-p", fmt_num(self.alpha)]
        if self.counting:
            out += ["-t", str(self.counting)]
        return out


def fmt_num(x: float | None) -> str:
    if x is None:
        return ""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


_FLAGS_WITH_VALUE = set("bceflnptrwz23")  # the script's getopts('ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:')
_KNOWN_FLAGS = set("ahHbcdefmMnpstrluUvwxz23")


def parse_flags(flags: Sequence[str]) -> Rouge155Options:
    """Options from ROUGE-1.5.5.pl flags (``["-n", "4", "-w", "1.2", "-2", "4", "-U", "-f", "A", "-m"]``).
    Flags that do not change numbers (-a -d -e -z -v -h) are accepted and ignored; -3 (BE) and -M are
    refused with a message."""
    kw: dict = dict(n=0, w=None, skip=None, unigrams="")
    flags = list(flags)
    i = 0
    while i < len(flags):
        f = flags[i]
        if not (f.startswith("-") and len(f) == 2):
            raise ValueError(f"unexpected argument {f!r}: give ROUGE-1.5.5 flags such as -n 4 -m")
        c = f[1]
        val = None
        if c in _FLAGS_WITH_VALUE:
            if i + 1 >= len(flags):
                raise ValueError(f"flag {f} needs a value")
            val = flags[i + 1]
            i += 1
        i += 1
        _refuse_flag(c, f)
        try:
            _apply_flag(kw, c, val)
        except (TypeError, ValueError):
            shown = val if val is None or len(val) <= 20 else f"{val[:12]}... ({len(val):,} characters)"
            raise ValueError(f"bad value {shown!r} for flag {f}") from None
    return Rouge155Options(**kw)


def _refuse_flag(c: str, f: str) -> None:
    if c == "3":
        raise ValueError("Basic Elements scoring (-3) is not a rouge155 dialect option; the sample-test "
                         "runner explainer.rouge.rouge155.files.run_config(be_mode=...) implements it")
    if c == "M":
        raise ValueError("-M (stem the models only) is not supported")
    if c not in _KNOWN_FLAGS:
        raise ValueError(f"unknown ROUGE-1.5.5 flag {f}")


#: flag -> (option, how its value is read); -u/-U, -t and the flags without a value are handled in _apply_flag
_VALUE_FLAGS = {"n": ("n", int), "w": ("w", float), "2": ("skip", int), "l": ("length_limit", int),
                "b": ("byte_limit", int), "f": ("mode", str), "p": ("alpha", float), "c": ("confidence", float),
                "r": ("resamples", int)}
_SWITCHES = {"x": ("rouge_l", False), "m": ("stem", True), "s": ("remove_stopwords", True)}


def _apply_flag(kw: dict, c: str, val: str | None) -> None:
    """Set the option of flag ``-c`` in ``kw`` (-a -d -e -z -v -h -H do not change any number)."""
    if c in _VALUE_FLAGS:
        name, read = _VALUE_FLAGS[c]
        kw[name] = read(val)
        if c in ("w", "2"):
            kw["w_label" if c == "w" else "skip_label"] = val   # as written, for the labels
    elif c in _SWITCHES:
        name, value = _SWITCHES[c]
        kw[name] = value
    elif c in ("u", "U"):   # the script: -u wins over -U
        kw["unigrams"] = "u" if (c == "u" or kw["unigrams"] == "u") else "U"
    elif c == "t":
        t = int(val)
        kw["counting"] = t if t in (1, 2) else 0   # the script treats any other value as 0
