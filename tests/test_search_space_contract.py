"""The reproduce search space is declared by the dialects themselves (issue 29): every registered dialect of every
family is either searched (``search_configs``) or says why not (``search_excluded``), and the check fails when a
new dialect declares neither; every configuration a dialect declares binds."""
from __future__ import annotations

import pytest

from explainer.dialect import Dialect
from explainer.dialectcmp.space import family_space, search_status, unsearched_dialects
from explainer.families import FAMILIES
from explainer.registry import DialectRegistry
from explainer.search_space import SearchContext, point

CONTEXTS = [SearchContext(), SearchContext(corpus=True), SearchContext(no_space_script=True, split_changes=True),
            SearchContext(named={"max_order": 2, "word_order": 2, "beta": 3})]


def test_every_registered_dialect_is_searched_or_says_why():
    assert unsearched_dialects() == []
    for name in FAMILIES:
        fam = FAMILIES[name]
        for d in fam.dialect_names():
            status = search_status(fam.dialects.dialect_class(d))
            assert status, (name, d)


class _Silent(Dialect):
    """A new dialect that declares nothing about the search."""

    family = "Toy"
    name = "silent"


class _Excluded(Dialect):
    family = "Toy"
    name = "excluded"
    search_excluded = "downloads a model at run time"


class _Searched(Dialect):
    family = "Toy"
    name = "searched"

    @classmethod
    def search_configs(cls, context):
        return [point({}, 0.0)]


class _ToyFamily:
    def __init__(self, *classes):
        self.dialects = DialectRegistry("Toy", {})
        for c in classes:
            self.dialects.register(c)

    def dialect_names(self):
        return self.dialects.names()


def test_a_new_dialect_that_declares_neither_fails_the_check():
    assert unsearched_dialects({"toy": _ToyFamily(_Searched, _Excluded)}) == []
    assert unsearched_dialects({"toy": _ToyFamily(_Searched, _Silent, _Excluded)}) == ["toy/silent"]
    assert search_status(_Excluded) == "downloads a model at run time"
    assert search_status(_Searched) == "searched" and search_status(_Silent) is None


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_declared_configuration_binds(family):
    """Each point a dialect declares is a valid configuration of it (its options bind), and every dialect that
    is searched adds points in some context."""
    seen = set()
    for ctx in CONTEXTS:
        for sc in family_space(family, ctx):
            sc.config.bound()
            seen.add(sc.dialect)
            assert sc.cost >= 0 and all(isinstance(w, str) and w for w in sc.words)
    fam = FAMILIES[family]
    searched = {d for d in fam.dialect_names() if search_status(fam.dialects.dialect_class(d)) == "searched"}
    assert searched <= seen, searched - seen
