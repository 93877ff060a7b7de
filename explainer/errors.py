"""Errors the explainer itself raises for bad input (as opposed to errors the *real library* would raise,
which are recorded in a trace, never raised). Every one carries a message meant for the user."""
from explainer.text import InputTooLong


class ExplainerInputError(ValueError):
    """Input the explainer cannot explain (e.g. corpus reference streams of different lengths)."""


class TraceTooLarge(ExplainerInputError):
    """A full trace over a stated size limit (BLEU: ``explainer.bleu.limits``; ROUGE: ``explainer.rouge.limits``);
    the message says the limit and how to get the statistics instead."""


__all__ = ["ExplainerInputError", "InputTooLong", "TraceTooLarge"]
