"""One value "dialect + bound options": a bound dialect is equal and hashable by what it computes with (its
family, name, bound options and, for ROUGE, its types), and every shape that names a dialect with options (the
gaming lab's BleuConfig / RougeConfig, a Dialects/reproduce Config, the registry, the caches) keys on it or on
the one ``explainer.options.freeze``."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.attacks.configs import BleuConfig, RougeConfig
from explainer.bleu import get_dialect
from explainer.bleu.dialect_nltk import NltkDialect
from explainer.bleu.dialect_sacrebleu import SacreBleuDialect
from explainer.dialectcmp.configs import Config
from explainer.options import freeze
from explainer.rouge.engine import bind_dialect

ROOT = Path(__file__).resolve().parents[1]


def test_a_bound_dialect_is_its_options():
    a = get_dialect("sacrebleu", tokenize="intl")
    b = SacreBleuDialect(tokenize="intl")           # not from the registry: another object, the same value
    assert a is not b and a == b and hash(a) == hash(b)
    assert SacreBleuDialect() == SacreBleuDialect(tokenize="13a", smooth_method="exp")   # the defaults, given
    assert SacreBleuDialect() != SacreBleuDialect(tokenize="intl")
    assert {a: "cached"}[b] == "cached"
    assert a.key[:2] == ("BLEU", "sacrebleu")


def test_resolved_defaults_are_part_of_the_value():
    """sacreBLEU resolves effective_order from the API: the same numbers, the same value."""
    assert SacreBleuDialect(api="sentence_bleu") == SacreBleuDialect(api="sentence_bleu", effective_order=True)
    assert SacreBleuDialect(api="sentence_bleu") != SacreBleuDialect(api="sentence_bleu", effective_order=False)


def test_the_value_tells_apart_what_nltk_tells_apart():
    assert NltkDialect(alpha=5) != NltkDialect(alpha=5.0)      # NLTK's method6 keeps an int alpha an int
    assert NltkDialect(alpha=5.0) == NltkDialect(alpha=5.0)


def test_a_rouge_dialect_binds_its_types_too():
    a = bind_dialect("rouge-score", ["rouge1", "rougeL"])
    assert a == bind_dialect("rouge-score", ["rouge1", "rougeL"])
    assert a != bind_dialect("rouge-score", ["rouge1"])
    assert a != bind_dialect("rouge-score", ["rouge1", "rougeL"], use_stemmer=True)
    assert a != get_dialect("sacrebleu")


def test_the_lab_configs_key_on_the_bound_dialect():
    assert BleuConfig("sacrebleu") == BleuConfig("sacrebleu", tokenize="13a")
    assert hash(BleuConfig("sacrebleu")) == hash(BleuConfig("sacrebleu", tokenize="13a"))
    assert BleuConfig("sacrebleu") != BleuConfig("sacrebleu", tokenize="intl")
    assert BleuConfig("nltk") != BleuConfig("nltk", nltk_input="string")     # the lab's own extra still counts
    assert RougeConfig("rouge155", multi_ref="pool") == RougeConfig("rouge155")     # pool is its default
    assert BleuConfig("sacrebleu").dialect_object() == get_dialect("sacrebleu")


def test_a_dialects_config_gives_the_bound_dialect():
    c = Config.make("bleu", "nltk", {"smoothing": "method1"}, id="nltk:method1")
    assert c.bound() == get_dialect("nltk", smoothing="method1")
    r = Config.make("rouge", "rouge155", {"multi_ref": "best-recall"}, types=("rouge1",))
    assert r.bound() == bind_dialect("rouge155", ["rouge1"], multi_ref="best-recall")


def test_freeze_tells_apart_what_equality_does_not():
    assert freeze(True) != freeze(1) != freeze(1.0) and freeze(True) != freeze(1.0)
    assert freeze(0.0) != freeze(-0.0)
    assert freeze([1, 2]) == freeze([1, 2]) and freeze((1, 2)) != freeze([1, 2])
    assert freeze({"a": 1, "b": None}) == freeze({"b": None, "a": 1})
    hash(freeze({"w": (0.25, 0.25), "x": [1.5, None]}))
    with pytest.raises(TypeError):
        freeze({"y": bytearray(b"x")})     # unhashable: no key (the registry then shares no instance)


def test_one_freeze_function():
    """The registry, the shared cache and the Corpus page had three; now all use explainer.options.freeze."""
    from explainer.ui import compute

    assert compute.freeze is freeze
    for rel in ("explainer/registry.py", "explainer/ui/compute.py", "explainer/ui/corpus/page.py"):
        src = (ROOT / rel).read_text(encoding="utf-8")
        assert "def _freeze" not in src and "def freeze" not in src, rel


def test_every_dialects_capabilities_are_well_formed():
    """What the features ask a dialect names its own options and binds: a new dialect is checked the same way."""
    from explainer.bleu import DIALECTS as BLEU
    from explainer.bleu.flags import FLAGS
    from explainer.rouge import DIALECTS as ROUGE

    for name in BLEU:
        cls = BLEU[name]
        own = {o.name for o in cls.OPTIONS}
        assert cls.short_label and isinstance(cls.rank, int), name
        assert set(cls.cli_flags) <= set(FLAGS) and set(cls.cli_flags.values()) <= own, name
        assert not cls.smooth_words or set(cls.smooth_words.values()) <= {"true", "false"}, name
        for row in cls.comparison_rows(["the cat sat", "the cat sat down"]):
            d = get_dialect(name, **row["options"])
            assert row["id"] and row["label"] and isinstance(d.smoothing_label(), str), (name, row)
            assert cls.cli_argv(row["options"])[:5] == ["bleu", "--jsonl", "-", "--dialect", name]
        d = get_dialect(name)
        assert isinstance(d.tokenization_key(), tuple) and d.tokenization_key()[0] == name
        p = d.compute_bleu_params()
        assert p is None or set(p) == {"max_order", "smooth_method", "smooth_value", "effective_order"}
    for name in ROUGE:
        cls = ROUGE[name]
        assert cls.short_label and isinstance(cls.rank, int), name
        assert set(cls.reported_measures) <= {"precision", "recall", "fmeasure"}
        assert cls.search_multi_ref and cls.search_multi_ref[0][1] == 0.0, name    # its own rule first, free
        for row in cls.comparison_rows():
            bind_dialect(name, None, **row["options"])
        assert 0 < cls.f_alpha({}) < 1 and cls.f_rule({})


def test_metric_settings_equal_means_equal_hash():
    """MetricSettings compared options with ``==`` (5 == 5.0) but hashed their repr ("5" != "5.0"): two equal
    settings could land in two cache slots, and NLTK's alpha=5 and alpha=5.0 counted as the same settings."""
    from explainer.ui.families import DialectChoice
    from explainer.ui.settings import MetricSettings

    def settings(bleu_options):
        return MetricSettings().replace(DialectChoice("bleu", "nltk", bleu_options))

    a = settings({"smoothing": "method6", "alpha": 5})
    b = settings({"smoothing": "method6", "alpha": 5.0})
    c = settings({"alpha": 5, "smoothing": "method6"})
    assert a == c and hash(a) == hash(c)
    assert (a == b) == (hash(a) == hash(b))
    assert a != b                       # two NLTK configurations (the one freeze tells them apart)


def test_a_bound_dialect_given_to_bootstrap_is_named_by_its_name():
    """The CLI now passes its one bound dialect everywhere; the bootstrap's refusal printed the object's repr."""
    from explainer.bleu import bootstrap_bleu_corpus

    with pytest.raises(ValueError, match=r"not defined for the nltk dialect \("):
        bootstrap_bleu_corpus(["a b c"], [["a b c"]], dialect=get_dialect("nltk"), n_bootstrap=2)
