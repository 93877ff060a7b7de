"""The Corpus page: a test set of systems and references, corpus scores, paired tests, segments."""
