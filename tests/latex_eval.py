"""Evaluate the numbers of a rendered formula: every "a = b = c" chain in the page's LaTeX must hold.

A small recursive-descent reader for the LaTeX the pages emit: numbers (``2.225\\times 10^{-308}``), ``+ - \\cdot
\\times /``, ``\\frac{a}{b}``, ``\\tfrac``, ``\\exp``, ``\\log``, ``e^{x}``, ``x^{y}``, parentheses in every size
(``\\big(``, ``\\Big(``, ``\\left(``), ``\\infty``, and juxtaposition as multiplication (``0.25\\log 0.8``). A side
that names a symbol (``p_1``, ``\\mathrm{BP}``, ``\\sum``) is not a number and is skipped; the numeric sides of a
chain are compared with one another.

``\\quad`` separates statements; ``\\Rightarrow``, ``\\xrightarrow{…}``, ``\\le``, ``<``, ``>`` separate chains
within a statement (they are not equalities).
"""
from __future__ import annotations

import math
import re

__all__ = ["chains", "evaluate", "check_formula", "NotANumber", "strip_math"]


class NotANumber(Exception):
    """The side names a symbol or uses notation this reader does not evaluate."""


_SIZES = r"\\(?:big|Big|bigg|Bigg)[lr]?|\\left|\\right"
_NUMBER = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:\s*\\times\s*10\^\{(-?\d+)\})?")


def strip_math(tex: str) -> str:
    """The formula without the ``$$`` Streamlit wraps it in."""
    return tex.strip().strip("$").strip()


def _clean(tex: str) -> str:
    tex = strip_math(tex)
    tex = re.sub(r"\\begin\{aligned\}|\\end\{aligned\}|&", " ", tex)
    tex = re.sub(r"\\(?:hspace|phantom|hphantom)\{[^{}]*\}|\\textstyle|\\displaystyle", " ", tex)
    tex = _join_lines(tex)
    tex = re.sub(_SIZES, "", tex)
    tex = re.sub(r"\\[,;:! ]", " ", tex)
    tex = tex.replace("−", "-").replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    return tex


def _join_lines(tex: str) -> str:
    """Lines of an aligned block: a line that starts with '=' continues the chain above, one that starts with
    '+' or '-' continues the side above; any other line is a statement of its own."""
    lines = [x.strip() for x in tex.split("\\\\")]
    out = lines[0] if lines else ""
    for line in lines[1:]:
        if line.startswith(("=", "+", "-", "−")):
            out += " " + line
        else:
            out += " \\quad " + line
    return out


def _strip_text(stmt: str) -> str:
    return re.sub(r"\\text\{[^{}]*\}", r"\\TEXT", stmt)


def chains(tex: str) -> list[list[str]]:
    """The formula's equality chains: lists of sides."""
    out = []
    for stmt in re.split(r"\\quad|\\qquad", _clean(tex)):
        stmt = _strip_text(stmt)
        for chain in re.split(r"\\Rightarrow|\\xrightarrow\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\\to\b|\\le\b|\\ge\b|<|>"
                              r"|\\leq\b|\\geq\b", stmt):
            sides = [s.strip().strip(",;") for s in chain.split("=")]
            sides = [s for s in sides if s]
            if len(sides) >= 2:
                out.append(sides)
    return out


class _Reader:
    def __init__(self, s: str):
        self.s = s
        self.i = 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def peek(self, text: str) -> bool:
        self.ws()
        return self.s.startswith(text, self.i)

    def eat(self, text: str) -> bool:
        if self.peek(text):
            self.i += len(text)
            return True
        return False

    def done(self) -> bool:
        self.ws()
        return self.i >= len(self.s)

    # expr := term (('+'|'-') term)*
    def expr(self) -> float:
        v = self.term()
        while True:
            if self.eat("+"):
                v = v + self.term()
            elif self.eat("-"):
                v = v - self.term()
            else:
                return v

    # term := unary (('\cdot'|'\times'|'/'|juxtaposition) unary)*
    def term(self) -> float:
        v = self.unary()
        while True:
            self.ws()
            if self.eat("\\cdot") or self.eat("\\times"):
                v = _mul(v, self.unary())
            elif self.eat("/"):
                d = self.unary()
                v = v / d if d else (math.inf if v else math.nan)
            elif self.i < len(self.s) and (self.s[self.i].isdigit() or self.s[self.i] in "(\\{." ) and \
                    not self.peek("\\right") and not self.peek("}"):
                v = _mul(v, self.unary())
            else:
                return v

    def unary(self) -> float:
        if self.eat("-"):
            return -self.unary()
        if self.eat("+"):
            return self.unary()
        return self.power()

    def power(self) -> float:
        base = self.atom()
        if self.eat("^"):
            e = self.group_or_atom()
            try:
                return base ** e
            except OverflowError:
                return math.inf
        return base

    def group_or_atom(self) -> float:
        if self.eat("{"):
            v = self.expr()
            if not self.eat("}"):
                raise NotANumber("unclosed {")
            return v
        return self.atom()

    def atom(self) -> float:
        self.ws()
        m = _NUMBER.match(self.s, self.i)
        if m:
            self.i = m.end()
            num = re.match(r"\d+(?:\.\d*)?|\.\d+", m.group(0)).group(0)
            v = float(num)
            if m.group(1) is not None:
                v *= 10.0 ** int(m.group(1))
            return v
        if self.eat("\\infty"):
            return math.inf
        if self.eat("\\frac"):
            a = self.group_or_atom()
            b = self.group_or_atom()
            return a / b if b else (math.inf if a else math.nan)
        if self.eat("\\exp"):
            x = self.atom()
            try:
                return math.exp(x)
            except OverflowError:
                return math.inf
        if self.eat("\\log") or self.eat("\\ln"):
            x = self.power_arg()
            return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)
        if self.peek("e^"):
            self.i += 1
            self.eat("^")
            x = self.group_or_atom()
            try:
                return math.exp(x)
            except OverflowError:
                return math.inf
        if self.eat("("):
            v = self.expr()
            if not self.eat(")"):
                raise NotANumber("unclosed (")
            return v
        if self.eat("{"):
            v = self.expr()
            if not self.eat("}"):
                raise NotANumber("unclosed {")
            return v
        raise NotANumber(self.s[self.i:self.i + 20])

    def power_arg(self) -> float:
        """The argument of \\log: an atom with its exponent (``\\log 0.8`` or ``\\log (…)``)."""
        return self.power()


def _mul(a: float, b: float) -> float:
    if (a == 0 and math.isinf(b)) or (b == 0 and math.isinf(a)):
        return math.nan
    return a * b


def evaluate(side: str) -> float:
    """The number a side stands for; NotANumber when it names a symbol."""
    if "\\TEXT" in side:
        raise NotANumber(side)
    rest = re.sub(r"\\(?:log|ln|exp|frac|cdot|times|infty)(?![a-zA-Z])", " ", side)
    if re.search(r"\\[a-zA-Z]+", rest) or re.search(r"[a-zA-Z]", re.sub(r"e\^", " ", rest)):
        raise NotANumber(side)  # a symbol (p_1, \mathrm{BP}, \sum, \alpha): not a number
    r = _Reader(side)
    v = r.expr()
    if not r.done():
        raise NotANumber(side[r.i:r.i + 20])
    return v


def close(a: float, b: float, rel: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return False
    if math.isinf(a) or math.isinf(b):
        return a == b
    if a == b:
        return True
    return abs(a - b) <= rel * max(abs(a), abs(b))


def check_formula(tex: str, *, rel: float = 3e-3) -> tuple[int, list[str]]:
    """(number of equalities checked, the ones that do not hold)."""
    checked, bad = 0, []
    for sides in chains(tex):
        values = []
        for s in sides:
            try:
                values.append((s, evaluate(s)))
            except (NotANumber, ValueError, ZeroDivisionError, OverflowError):
                continue
        for (s1, a), (s2, b) in zip(values, values[1:]):
            checked += 1
            if not close(a, b, rel):
                bad.append(f"{s1} = {a!r} but {s2} = {b!r}")
    return checked, bad
