"""Hugging Face ``evaluate`` 0.4.6, metric "rouge": rouge-score underneath, ``use_stemmer`` off by default, several
references through ``score_multi`` (best F per type), F only; ``use_aggregator`` gives the bootstrap median (mid) of
rouge-score's BootstrapAggregator under the load-time seed. See docs/dialects-rouge.md."""
from __future__ import annotations

from explainer.options import OptionSpec
from explainer.rouge.aggregate import bootstrap
from explainer.rouge.dialects import RougeDialect, multi_ref_option, search_splits, stemmer_option, tokenizer_option
from explainer.search_space import point

__all__ = ["HfEvaluateDialect"]


class HfEvaluateDialect(RougeDialect):
    name = "hf-evaluate"
    label = "Hugging Face evaluate 0.4.6, metric 'rouge'"
    description = ("HF evaluate's rouge metric: rouge-score underneath, use_stemmer off by default, several "
                   "references via score_multi (best F per type), returns F only; use_aggregator gives the "
                   "bootstrap median (mid) of rouge-score's BootstrapAggregator under the load-time seed.")
    OPTIONS = (stemmer_option(), multi_ref_option(), tokenizer_option(),
               OptionSpec("use_aggregator", "bool", True,
                          "True: bootstrap 'mid' F (a median of resample means); False: the list of per-item F values",
                          scope="corpus"),
               OptionSpec("seed", "int", 42, "the seed given to evaluate.load(..., seed=); HF reseeds NumPy's legacy "
                                             "global RNG with it before every compute", scope="corpus", min=0,
                          max=2**32 - 1))

    short_label = "HF evaluate"
    rank = 2
    reported_measures = ("fmeasure",)
    search_multi_ref = (("best-f", 0.0, ""),)     # evaluate's compute has no other rule

    @classmethod
    def search_configs(cls, context):
        """Stemming; one segment: the Lsum sentence splitting; a corpus: its bootstrap mid of F."""
        if context.corpus:
            return [point({"use_stemmer": True} if stem else {}, 0.0, "use_stemmer=True" if stem else "",
                          aggregation="bootstrap") for stem in (False, True)]
        return [point({"use_stemmer": True} if stem else {}, sc, "use_stemmer=True" if stem else "", sw,
                      lsum_split=split)
                for split, sc, sw in search_splits(context) for stem in (False, True)]

    @classmethod
    def comparison_rows(cls, texts=()):
        return [{"options": {}, "id": cls.name, "label": "HF evaluate",
                 "note": "evaluate.load('rouge'): rouge-score underneath, F only"}]

    def reported(self, scores):
        return {t: s.fmeasure for t, s in scores.items()}

    def call_snippet(self, n_refs):
        if self.options["tokenizer"] != "rouge-score" or any(t.kind not in self.native_kinds for t in self.types):
            return None
        if n_refs > 1 and self.multi_ref != "best-f":
            return None
        refs = "[reference]" if n_refs == 1 else "[references]"
        return ("import evaluate\nrouge = evaluate.load(\"rouge\")\n"
                f"rouge.compute(predictions=[candidate], references={refs}, rouge_types={self.type_names!r}, "
                f"use_stemmer={self.stem}, use_aggregator=False)  # F only")

    def aggregate(self, per_type):
        if not self.options["use_aggregator"]:
            per_item = {t: [s.fmeasure for s in v] for t, v in per_type.items()}
            return per_item, {"method": "none", "note": "use_aggregator=False: one F value per item"}, dict(per_item)
        seed = self.options["seed"]
        agg = bootstrap(per_type, seed=seed)
        desc = {"method": "bootstrap", "seed": seed, "n_samples": 1000, "confidence_interval": 0.95,
                "note": "HF evaluate returns mid.fmeasure of rouge-score's BootstrapAggregator: the MEDIAN of 1,000 "
                        "bootstrap resample means, not the mean of the scores"}
        return agg, desc, {t: a["mid"].fmeasure for t, a in agg.items()}
