"""``count_all_ngrams`` gives sacreBLEU's ``extract_all_word_ngrams``: the same keys, counts and key order."""
import random

from sacrebleu.metrics.helpers import extract_all_word_ngrams

from explainer.ngrams import count_all_ngrams


def test_equal_to_sacrebleus_counting_for_every_length_and_order_range():
    rng = random.Random(5)
    vocab = "der die das , . und ist nicht a b".split()
    for length in list(range(0, 9)) + [25, 60, 200]:
        for _ in range(20):
            line = " ".join(rng.choice(vocab) for _ in range(length))
            for lo, hi in ((1, 4), (2, 4), (1, 1), (3, 6), (5, 4)):
                want, n_tokens = extract_all_word_ngrams(line, lo, hi)
                got = count_all_ngrams(line.split(), hi, lo)
                assert got == want and list(got) == list(want), (line, lo, hi)
                assert sum(c for g, c in got.items() if len(g) == lo) == max(0, n_tokens - lo + 1) or lo > hi


def test_lists_and_tuples_of_tokens_count_the_same():
    toks = "a b a b a".split()
    assert count_all_ngrams(tuple(toks), 4) == count_all_ngrams(toks, 4)
    assert count_all_ngrams(toks, 2)[("a", "b")] == 2
