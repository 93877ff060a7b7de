"""Errors the explainer itself raises for bad input (as opposed to errors the *real library* would raise,
which are recorded in a trace, never raised). Every one carries a message meant for the user."""
from explainer.text import InputTooLong


class ExplainerInputError(ValueError):
    """Input the explainer cannot explain (e.g. corpus reference streams of different lengths)."""


__all__ = ["ExplainerInputError", "InputTooLong"]
