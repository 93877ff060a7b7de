"""The dialect contract shared by both families (explainer/dialect.py, explainer/options.py, explainer/registry.py):
options bound and validated once at construction, read-only afterwards, per-instance caches, one option-spec type
with one coercion rule, lazy registries that import only the dialect asked for."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from explainer.options import OptionSpec, bind_options

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


# ------------------------------------------------------------------------------------------- option specs
def test_one_coercion_rule_for_every_type():
    assert OptionSpec("x", "bool", False).coerce("yes") is True
    assert OptionSpec("x", "bool", None).kind == "tristate" and OptionSpec("x", "bool", False).kind == "bool"
    assert OptionSpec("x", "int", 1, min=0, max=9).coerce("7") == 7
    assert OptionSpec("x", "float", 0.5).coerce("0.25") == 0.25
    assert OptionSpec("x", "optional_float", None).coerce(None) is None
    assert OptionSpec("x", "float_list", (0.5, 0.5), max=3).coerce("1, 2") == (1.0, 2.0)
    assert OptionSpec("x", "choice", "a", choices=("a", "b")).coerce("b") == "b"
    assert OptionSpec("x", "text", "", max=3).coerce("abc") == "abc"
    for spec, bad, msg in [(OptionSpec("x", "int", 1), 2.5, "expects an integer"),
                           (OptionSpec("x", "int", 1), "9" * 4301, "expects an integer"),
                           (OptionSpec("x", "float", 1.0), "nan", "finite"),
                           (OptionSpec("x", "float", 1.0, min=0, max=1), 2, "between 0 and 1"),
                           (OptionSpec("x", "bool", False), 2, "true/false"),
                           (OptionSpec("x", "float_list", (1.0,), max=2), "1 2 3", "at most 2"),
                           (OptionSpec("x", "text", "", max=3), "abcd", "at most 3 characters"),
                           (OptionSpec("x", "choice", "a", choices=("a",)), "z", "must be one of a")]:
        with pytest.raises(ValueError, match=msg):
            spec.coerce(bad)


def test_spec_json_carries_what_a_ui_needs():
    d = OptionSpec("seed", "int", 42, "the seed", min=0, max=9, scope="corpus", label="seed").to_dict()
    assert d == {"name": "seed", "type": "int", "default": 42, "help": "the seed", "choices": None, "min": 0, "max": 9,
                 "label": "seed", "scope": "corpus", "corpus_only": True}
    json.dumps(d)
    with pytest.raises(ValueError, match="unknown type"):
        OptionSpec("x", "colour", 1)


def test_bind_options_defaults_aliases_and_unknown_names():
    specs = (OptionSpec("use_stemmer", "bool", False), OptionSpec("n", "int", 4, min=1))
    assert bind_options("the d dialect", specs, {}) == {"use_stemmer": False, "n": 4}
    assert bind_options("the d dialect", specs, {"stem": "1", "n": None},
                        aliases={"stem": "use_stemmer"}) == {"use_stemmer": True, "n": 4}
    with pytest.raises(ValueError, match="the d dialect has no option 'colour'; its options are: use_stemmer, n"):
        bind_options("the d dialect", specs, {"colour": 1})


# ----------------------------------------------------------------------------------- bound dialects (BLEU)
def test_bleu_dialect_is_bound_validated_once_and_read_only():
    from explainer.bleu.dialect_sacrebleu import SacreBleuDialect

    d = SacreBleuDialect(tokenize="intl", smooth_method="floor")
    assert d.options["tokenize"] == "intl" and d.options["smooth_value"] == 0.1   # resolved by the dialect
    with pytest.raises(TypeError):
        d.options["tokenize"] = "13a"                                                 # frozen after construction
    with pytest.raises(ValueError, match="tokenize must be one of"):
        SacreBleuDialect(tokenize="moses")
    assert "tok:intl" in d.signature(1) and "smooth:floor" in d.signature(1)


def test_bleu_registry_shares_bound_instances_and_keeps_caches_per_instance():
    from explainer.bleu import get_dialect, score_bleu

    a = get_dialect("sacrebleu", tokenize="intl")
    assert get_dialect("sacrebleu", tokenize="intl") is a                            # same options: same instance
    b = get_dialect("sacrebleu", tokenize="char")
    assert b is not a
    score_bleu("a b", ["a b"], dialect="sacrebleu", tokenize="intl")
    score_bleu("a b", ["a b"], dialect="sacrebleu", tokenize="char")
    assert a.cached("signature", 1, lambda: "never built") == a.signature(1)          # a's own cache
    assert b.cached("signature", 1, lambda: "never built") == b.signature(1) != a.signature(1)
    # NLTK distinguishes int from float and list from tuple: they are different bound dialects
    assert get_dialect("nltk", alpha=0) is not get_dialect("nltk", alpha=0.0)
    assert get_dialect("nltk", weights=[0.5, 0.5]) is not get_dialect("nltk", weights=(0.5, 0.5))


def test_a_dialect_instance_can_be_passed_instead_of_a_name():
    from explainer.bleu import explain_bleu
    from explainer.bleu.dialect_nltk import NltkDialect

    d = NltkDialect(weights=(0.5, 0.5))
    assert explain_bleu("a b c", ["a b c"], dialect=d).score == 1.0
    with pytest.raises(ValueError, match="options cannot be given together with a dialect instance"):
        explain_bleu("a", ["a"], dialect=d, smoothing="method1")


def test_bleu_registry_is_lazy():
    """Naming the dialects imports none of them; scoring with sacreBLEU's dialect imports neither NLTK nor the
    Moses ports (the CLI's start-up time depends on it)."""
    out = _python(
        "import sys\n"
        "import explainer.bleu as b\n"
        "names = b.dialect_names()\n"
        "loaded = [m for m in sys.modules if m.startswith('explainer.bleu.dialect_') or 'moses' in m]\n"
        "print(names, loaded)\n"
        "b.score_bleu('the cat', ['the cat'], dialect='sacrebleu')\n"
        "b.explain_bleu('the cat', ['the cat'], dialect='sacrebleu').to_dict()\n"
        "print('nltk' in sys.modules, 'explainer.bleu.moses' in sys.modules, "
        "'explainer.bleu.dialect_nltk' in sys.modules)\n")
    first, second = out.strip().splitlines()
    assert first == ("['sacrebleu', 'nltk', 'hf-evaluate', 'multi-bleu', 'mteval', 'textbook', 'torchmetrics', "
                     "'torchmetrics-sacrebleu', 'google-bleu'] []")
    assert second == "False False False"


def test_registry_mapping_and_registration():
    from explainer.bleu.dialects import BleuDialect
    from explainer.registry import DialectRegistry

    class Toy(BleuDialect):
        name = "toy"
        OPTIONS = (OptionSpec("n", "int", 2, min=1),)

    reg = DialectRegistry("BLEU", {"nltk": "explainer.bleu.dialect_nltk:NltkDialect"})
    assert list(reg) == ["nltk"] and "nltk" in reg and "toy" not in reg
    reg.register(Toy)
    assert list(reg) == ["nltk", "toy"] and reg["toy"] is Toy and reg.create("toy", n="3").options["n"] == 3
    with pytest.raises(ValueError, match="already registered"):
        reg.register(type("Other", (BleuDialect,), {"name": "toy"}))
    with pytest.raises(ValueError, match="unknown BLEU dialect 'bleurt'; choose one of: nltk, toy"):
        reg.create("bleurt")


# ----------------------------------------------------------------------------------- bound dialects (ROUGE)
def test_rouge_dialect_binds_types_and_options_once():
    from explainer.rouge.dialect_rouge_score import RougeScoreDialect

    d = RougeScoreDialect(["rouge1", "rougeLsum"], stem="true")        # an alias and a string value
    assert d.type_names == ["rouge1", "rougeLsum"] and d.options["use_stemmer"] is True and d.needs_sentences
    assert d.signature() == ("rouge-score|multi_ref=best-f|split_summaries=False|tokenizer=rouge-score|"
                             "use_stemmer=True|types=rouge1,rougeLsum")
    with pytest.raises(TypeError):
        d.options["use_stemmer"] = False
    with pytest.raises(ValueError, match="invalid ROUGE type 'rouge0'"):
        RougeScoreDialect(["rouge0"])
    with pytest.raises(ValueError, match="the textbook dialect .* not rougeLsum"):
        from explainer.rouge.dialect_textbook import TextbookDialect
        TextbookDialect(["rougeLsum"])
    with pytest.raises(ValueError, match="the rouge-score dialect has no option 'alpha'"):
        RougeScoreDialect(alpha=0.5)


def test_rouge_caches_are_per_instance(monkeypatch):
    """Tokenized references are kept by the bound dialect that made them (no global cache keyed on id())."""
    from explainer.rouge import engine, get_dialect, score_rouge

    assert not hasattr(engine, "_REF_CACHE")
    plain = get_dialect("rouge-score", ["rouge1"])
    stemmed = get_dialect("rouge-score", ["rouge1"], use_stemmer=True)
    assert get_dialect("rouge-score", ["rouge1"]) is plain and stemmed is not plain
    ref = "the cats were running home"
    assert score_rouge("cat run", [ref], types=["rouge1"])["rouge1"].recall == 0.0
    assert score_rouge("cat run", [ref], types=["rouge1"], use_stemmer=True)["rouge1"].recall == 0.4
    assert plain.prepare_reference(ref).tokens == ["the", "cats", "were", "running", "home"]
    assert stemmed.prepare_reference(ref).tokens == ["the", "cat", "were", "run", "home"]
    assert plain.prepare_reference(ref) is plain.prepare_reference(ref)                # kept, per instance
    assert stemmed.prepare_reference(ref) is not plain.prepare_reference(ref)


def test_a_bound_rouge_dialect_can_be_passed_instead_of_a_name():
    from explainer.rouge import explain_rouge, get_dialect, score_rouge

    d = get_dialect("rouge155", ["rouge1", "rougeL"], multi_ref="best-recall")
    tr = explain_rouge("a b c", ["a b", "a b c d"], dialect=d)
    assert tr.types == ["rouge1", "rougeL"] and tr.multi_ref == "best-recall"
    assert score_rouge("a b c", ["a b", "a b c d"], dialect=d) == tr.scores
    with pytest.raises(ValueError, match="cannot be given together with a dialect instance"):
        score_rouge("a", ["a"], dialect=d, types=["rouge2"])


def test_rouge_option_specs_are_the_shared_type():
    from explainer.rouge import dialect_names, dialect_options
    from explainer.rouge.registry import DIALECTS

    for name in dialect_names():
        assert all(isinstance(o, OptionSpec) for o in DIALECTS[name].OPTIONS)
        segment = dialect_options(name)
        assert all(not o.get("corpus_only") for o in segment)
        assert {o["name"] for o in dialect_options(name, corpus=True)} >= {o["name"] for o in segment}
        json.dumps(dialect_options(name, corpus=True))


def test_rouge_registry_is_lazy():
    """Naming the ROUGE dialects imports none; rouge-score's dialect does not import the ROUGE-1.5.5 port."""
    out = _python(
        "import sys\n"
        "import explainer.rouge as r\n"
        "names = r.dialect_names()\n"
        "r.score_rouge('the cat', ['the cat'])\n"
        "r.explain_rouge('the cat', ['the cat']).to_dict()\n"
        "print(names, 'explainer.rouge.rouge155' in sys.modules, 'explainer.rouge.dialect_textbook' in sys.modules,\n"
        "      'jieba' in sys.modules, 'explainer.rouge.dialect_rouge_metric' in sys.modules)\n"
        "r.score_rouge('the cat', ['the cat'], dialect='rouge155')\n"
        "print('explainer.rouge.rouge155.dialect' in sys.modules)\n")
    assert out.split("\n")[:2] == ["['rouge-score', 'hf-evaluate', 'textbook', 'rouge155', 'rouge-chinese', 'pltrdy', "
                                    "'rouge-metric', 'torchmetrics'] False False False False", "True"]


def test_importing_the_packages_is_cheap():
    """``import explainer.rouge`` (as the CLI's parser does) loads no algorithm, NumPy or dialect; the top-level
    package exposes the whole public API lazily."""
    out = _python(
        "import sys\n"
        "import explainer, explainer.bleu, explainer.rouge\n"
        "print('numpy' in sys.modules, 'explainer.rouge.engine' in sys.modules, 'sacrebleu' in sys.modules)\n"
        "names = ['explain_bleu', 'explain_bleu_corpus', 'score_bleu', 'score_bleu_corpus', 'bootstrap_bleu_corpus',\n"
        "         'explain_rouge', 'score_rouge', 'explain_rouge_corpus', 'BleuTrace', 'RougeTrace']\n"
        "print(all(callable(getattr(explainer, n)) for n in names))\n")
    assert out.split("\n")[:2] == ["False False False", "True"]


# ------------------------------------------------------------------------------------------- TER's family
def test_ter_dialect_is_bound_validated_once_and_read_only():
    from sacrebleu.metrics import TER

    from explainer.ter.dialect_sacrebleu import SacreTerDialect

    d = SacreTerDialect(normalized="yes", case_sensitive=True)
    assert d.options == {"normalized": True, "no_punct": False, "asian_support": False, "case_sensitive": True}
    assert d.family == "TER" and d.key == ("TER", "sacrebleu", d.key[2])
    with pytest.raises(TypeError):
        d.options["normalized"] = False
    with pytest.raises(ValueError, match="option no_punct expects true/false"):
        SacreTerDialect(no_punct=2)
    m = TER(normalized=True, case_sensitive=True)
    m.num_refs = 2
    assert d.signature(2) == m.get_signature().format()
    assert all(isinstance(o, OptionSpec) for o in SacreTerDialect.OPTIONS)
    assert [o["name"] for o in SacreTerDialect.describe_options()] == ["normalized", "no_punct", "asian_support",
                                                                        "case_sensitive"]
    assert [o.default for o in SacreTerDialect.OPTIONS] == [False, False, False, False]   # TER()'s defaults


def test_ter_registry_shares_bound_instances_and_accepts_an_instance():
    from explainer.ter import DIALECTS, dialect_options, explain_ter, get_dialect, score_ter

    assert DIALECTS.family == "TER" and list(DIALECTS) == ["sacrebleu"]
    a = get_dialect("sacrebleu", normalized=True)
    assert get_dialect("sacrebleu", normalized=True) is a == get_dialect("sacrebleu", normalized="true")
    b = get_dialect("sacrebleu")
    assert b is not a and b != a and hash(b) == hash(get_dialect("sacrebleu", normalized=False))
    score_ter("a b", ["a b"], dialect="sacrebleu", normalized=True)
    assert a.cached("signature", 1, lambda: "never built") == a.signature(1)
    assert explain_ter("a b", ["b a"], dialect=a).num_edits == 1
    with pytest.raises(ValueError, match="options cannot be given together with a dialect instance"):
        explain_ter("a", ["a"], dialect=a, no_punct=True)
    assert {o["name"] for o in dialect_options("sacrebleu")} == {"normalized", "no_punct", "asian_support",
                                                                  "case_sensitive"}


def test_ter_registry_is_lazy():
    """Naming TER's dialects imports none of them, nor sacreBLEU or NumPy; scoring imports the dialect, not NumPy
    (only the significance tests' rows need it)."""
    out = _python(
        "import sys\n"
        "import explainer.ter as t\n"
        "print(t.dialect_names(), 'explainer.ter.dialect_sacrebleu' in sys.modules, 'sacrebleu' in sys.modules,\n"
        "      'numpy' in sys.modules)\n"
        "t.score_ter('the cat', ['the cat'])\n"
        "print('explainer.ter.dialect_sacrebleu' in sys.modules, 'numpy' in sys.modules)\n")
    assert out.split("\n")[:2] == ["['sacrebleu'] False False False", "True False"]
