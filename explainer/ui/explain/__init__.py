"""The Explain page: one candidate, several references, every step of BLEU, ROUGE and chrF."""
