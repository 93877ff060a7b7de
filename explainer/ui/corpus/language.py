"""The Corpus page's language pair (sacreBLEU's ``-l en-zh``): the target picks the tokenizer of every chosen
dialect that has one, as sacreBLEU's own table says (``explainer.corpus.langpair``); read from WMT file names
(``generaltest2022.en-zh.hyp.HuaweiTSC.zh``) when they are loaded, before the first scoring (issue 33, item 3: the
page scored with 13a first, then again once ``en-zh`` was typed). The link carries the tokenizer, not the field.
"""
from __future__ import annotations

import re
from typing import Iterable

import streamlit as st

from explainer.errors import ExplainerInputError
from explainer.ui import highlight as hl
from explainer.ui import settings as metric_settings

__all__ = ["language_pair_field", "apply_language_pair", "pair_from_file_names", "pair_from_uploads", "KEY", "NOTE_KEY"]

KEY = "cp_langpair"
NOTE_KEY = "cp_langpair_note"
#: a language pair in a WMT / sacreBLEU file name: ``….en-zh.…``, ``…_de-en_…``
_IN_NAME = re.compile(r"(?:^|[._/\-])([a-z]{2,3})-([a-z]{2,3})(?=[._/])")


def pair_from_file_names(names: Iterable[str]) -> str | None:
    """The language pair every file name states (``generaltest2022.en-zh.hyp.HuaweiTSC.zh`` -> ``en-zh``), or
    None when a name states none or two names state different ones."""
    found = set()
    for n in names:
        m = _IN_NAME.findall(str(n).lower())
        if len(m) != 1:
            return None
        found.add(f"{m[0][0]}-{m[0][1]}")
    return found.pop() if len(found) == 1 else None


def language_pair_field() -> None:
    """The field (a change applies the pair at once) and what the last change did."""
    st.text_input("Language pair (sacreBLEU's -l: the target picks the tokenizer)", key=KEY,
                  placeholder="e.g. en-de, en-zh", max_chars=20, on_change=apply_language_pair)
    note = st.session_state.pop(NOTE_KEY, None)
    if note:
        st.caption(hl.md_escape(note))


def apply_language_pair() -> None:
    """The pair in the field: sacreBLEU's tokenizer for its target into every family whose dialect has a
    ``tokenize`` option that offers it (a callback: before the widgets of the next run are drawn)."""
    from explainer.corpus.langpair import parse_language_pair
    from explainer.ui.families import ui_family

    ss = st.session_state
    text = (ss.get(KEY) or "").strip()
    if not text:
        return
    try:
        pair = parse_language_pair(text)
    except ExplainerInputError as e:
        ss[NOTE_KEY] = str(e)
        return
    current, _ = metric_settings.current_settings()
    changed, refused = [], []
    for name, choice in current.items():
        fam = ui_family(name)
        spec = next((o for o in fam.option_specs(choice.dialect) if o.name == "tokenize"), None)
        if spec is None:
            continue
        if pair.tokenizer in (spec.choices or ()):
            changed.append(choice.replace(tokenize=pair.tokenizer))
        else:
            refused.append(f"{fam.label} ({choice.dialect})")
    if changed:
        metric_settings.put_settings(current.replace(*changed))
        ss[NOTE_KEY] = (f"{pair.source}-{pair.target}: tokenizer {pair.tokenizer}, sacreBLEU's choice for "
                        f"{pair.target} (sidebar)")
    elif refused:
        ss[NOTE_KEY] = (f"sacreBLEU picks {pair.tokenizer} for {pair.target}: it needs MeCab, which this explainer "
                        "does not have; pick char (or another) in the sidebar")
    else:
        ss[NOTE_KEY] = ("no dialect chosen has a tokenizer setting; the language pair is sacreBLEU's (pick "
                        "sacrebleu in the sidebar)")


def pair_from_uploads(names: Iterable[str]) -> None:
    """Files named as WMT releases them: their language pair into the field and the tokenizer, before the page
    scores them (a callback of the upload)."""
    pair = pair_from_file_names(names)
    if pair is not None:
        st.session_state[KEY] = pair
        apply_language_pair()
