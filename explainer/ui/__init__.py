"""The Streamlit UI: the only subpackage that imports Streamlit. One folder per page (explain, corpus, dialects,
lab, teach: layout and state), shared components beside them: the page-state engine (pagestate), the metric
settings (settings, schema), the shared cache (compute), the trace views (bleu_view, rouge_view, charts,
highlight)."""
