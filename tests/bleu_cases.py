"""Seeded generator of BLEU test cases (shared by the parity tests and the benchmark).

Small vocabulary so ties, repeats, zero matches and short candidates are common; mixed case, ASCII and
Unicode punctuation, entities, non-ASCII letters, CJK; 1-5 references of different lengths; odd spacing.
"""
from __future__ import annotations

import random

VOCAB = ["the", "The", "THE", "cat", "sat", "on", "mat", "a", "dog", "is", "ran", "red", ",", ".", "!", "?",
         "'s", "e-mail", "2023", "3.5", "über", "Straße", "café", "ÄRGER", "—", "&amp;", "&quot;", "<skipped>",
         "猫", "日本語", "“quote”", "x-ray", "mat.", "it's", "naïve", "İstanbul", "(a)", "$5", "U.S."]
PUNCT = [",", ".", "!", "?", ";", ":"]


def _text(rng: random.Random, words: list[str]) -> str:
    out = []
    for w in words:
        if out and w in PUNCT and rng.random() < 0.4:
            out[-1] += w           # punctuation attached to the previous word
        else:
            out.append(w)
    sep = " "
    s = sep.join(out)
    r = rng.random()
    if r < 0.04:
        s = " " + s
    elif r < 0.08:
        s = s + " "
    elif r < 0.10:
        s = s.replace(" ", "  ", 1)
    elif r < 0.12:
        s = s.replace(" ", "\t", 1)
    return s


def _perturb(rng: random.Random, words: list[str], sub: list[str]) -> list[str]:
    w = list(words)
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["sub", "del", "ins", "swap", "dup"])
        if op == "sub" and w:
            w[rng.randrange(len(w))] = rng.choice(sub)
        elif op == "del" and w:
            del w[rng.randrange(len(w))]
        elif op == "ins":
            w.insert(rng.randint(0, len(w)), rng.choice(sub))
        elif op == "swap" and len(w) > 1:
            i = rng.randrange(len(w) - 1)
            w[i], w[i + 1] = w[i + 1], w[i]
        elif op == "dup" and w:
            i = rng.randrange(len(w))
            j = min(len(w), i + rng.randint(1, 3))
            w[j:j] = w[i:j]
    return w


def make_case(rng: random.Random) -> tuple[str, list[str]]:
    sub = rng.sample(VOCAB, rng.randint(3, 10))
    nrefs = rng.choice([1, 1, 2, 2, 3, 4, 5])
    refs_w = [[rng.choice(sub) for _ in range(rng.randint(0 if rng.random() < 0.05 else 1, 12))]
              for _ in range(nrefs)]
    kind = rng.random()
    if kind < 0.4:
        cand_w = _perturb(rng, rng.choice(refs_w), sub)
    elif kind < 0.6:
        cand_w = [rng.choice(sub) for _ in range(rng.randint(1, 12))]
    elif kind < 0.75:
        base = rng.choice(refs_w)
        i = rng.randint(0, len(base))
        cand_w = base[i:i + rng.randint(0, 3)]
    elif kind < 0.85:
        cand_w = [rng.choice(sub)] * rng.randint(2, 9) + [rng.choice(sub) for _ in range(rng.randint(0, 3))]
    elif kind < 0.9:
        cand_w = []
    else:
        # tie in closest length: references of length c-d and c+d
        c = rng.randint(2, 8)
        d = rng.randint(1, 2)
        cand_w = [rng.choice(sub) for _ in range(c)]
        refs_w[0] = [rng.choice(sub) for _ in range(c + d)]
        if len(refs_w) < 2:
            refs_w.append([])
        refs_w[1] = [rng.choice(sub) for _ in range(max(0, c - d))]
        rng.shuffle(refs_w)
    return _text(rng, cand_w), [_text(rng, w) for w in refs_w]


def make_cases(n: int, seed: int = 20261122) -> list[tuple[str, list[str]]]:
    rng = random.Random(seed)
    return [make_case(rng) for _ in range(n)]
