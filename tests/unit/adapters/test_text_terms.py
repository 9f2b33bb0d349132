"""What every store looks for in a keyword query: its words that count, by their stems."""

from __future__ import annotations

from eden_memory.adapters.stores.text_terms import content_words, only_stop_words, query_terms
from eden_memory.domain.stop_words import STOP_WORDS, is_stop_word

# MongoDB's $text drops these (src/mongo/db/fts/stop_words_english.txt): a word the stores
# keep must be one $text looks for, or a text index would hide the facts holding it.
MONGODB_ENGLISH_SAMPLE = ["about", "could", "during", "herself", "ought", "wouldn't", "yourselves"]


def test_a_question_keeps_its_words_that_count() -> None:
    words = ["When", "did", "Caroline", "go", "to", "the", "LGBTQ", "support", "group"]
    assert content_words(words) == ["Caroline", "go", "LGBTQ", "support", "group"]
    assert query_terms(words) == ["carolin", "go", "lgbtq", "support", "group"]


def test_question_words_modals_and_contraction_pieces_are_stop_words() -> None:
    for word in ["what", "who", "whose", "when", "where", "why", "how", "which", "can", "will"]:
        assert is_stop_word(word)
    assert all(is_stop_word(w) for w in ["don", "t", "s", "ll", "ve", "I", "Don’t", "IT'S"])


def test_content_words_that_look_like_function_words_are_kept() -> None:
    assert not is_stop_word("may")  # the month
    assert not is_stop_word("won")  # of "won't", but also of winning
    assert not is_stop_word("go")


def test_the_list_holds_mongodbs_english_stop_words() -> None:
    assert set(MONGODB_ENGLISH_SAMPLE) <= STOP_WORDS
    assert len(STOP_WORDS) > 174


def test_a_query_of_stop_words_only_keeps_them_all() -> None:
    assert content_words(["Who", "is", "it"]) == ["Who", "is", "it"]
    assert content_words(["The", "Who"]) == ["The", "Who"]
    assert only_stop_words(["The", "Who"])
    assert not only_stop_words(["The", "band"])
    assert not only_stop_words([])
    assert content_words([]) == []


def test_the_first_word_of_each_stem_stands_for_it() -> None:
    assert content_words(["groups", "attend", "Group", "attended", "attending"]) == [
        "groups",
        "attend",
    ]
    assert query_terms(["Attending", "groups"]) == ["attend", "group"]
