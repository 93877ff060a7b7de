"""Gaming lab core (pure Python, no Streamlit): presets of the gaming catalogue (docs/gaming-lab.md), attack generators,
sweeps (metric vs one knob) and a bounded metric optimizer. All scores come from the real sacreBLEU and
rouge-score through :mod:`explainer.attacks.scoring`."""
