"""Analysis over traces (pure, no Streamlit): what a trace means in plain words, and what other settings give.

* :mod:`explainer.analysis.bleu_terms` — the terms BLEU's final formula adds up, as the library adds them
  (smoothed / floored precisions, the stand-in for log 0), so a view can show a formula that evaluates to the
  score;
* :mod:`explainer.analysis.diagnosis` — "why is this score zero / low?": findings read off a BLEU or ROUGE trace;
* :mod:`explainer.analysis.counterfactuals` — the same texts scored with another setting (the other sacreBLEU
  entry point, stemming on, the tokenizer a text without spaces needs), computed by the cores' fast paths.
"""
