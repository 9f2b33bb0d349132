"""English stop words: the words of a question that name nothing in particular.

Snowball's English stop words, which MongoDB's ``$text`` also drops, with the question words
and modal verbs it lacks and the pieces contractions split into ("don't" is "don" and "t" to
FTS5). "may" is left in: it is a month. The stores' keyword queries drop them
(``adapters/stores/text_terms.py``), and so does search's conflict rule
(``domain/conflicts.py``) when it reads which words a question names.
"""

from __future__ import annotations

# Snowball's English stop-word list (MongoDB's ``stop_words_english.txt``, 174 words).
_SNOWBALL = """
a about above after again against all am an and any are aren't as at be because been before
being below between both but by can't cannot could couldn't did didn't do does doesn't doing
don't down during each few for from further had hadn't has hasn't have haven't having he
he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've
if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of
off on once only or other ought our ours ourselves out over own same shan't she she'd
she'll she's should shouldn't so some such than that that's the their theirs them
themselves then there there's these they they'd they'll they're they've this those through
to too under until up very was wasn't we we'd we'll we're we've were weren't what what's
when when's where where's which while who who's whom why why's with won't would wouldn't
you you'd you'll you're you've your yours yourself yourselves
"""
# Question words and modals Snowball keeps, and what FTS5 cuts contractions into.
_MORE = """
whose can will shall might must also just s t d ll m re ve don doesn didn isn aren wasn
weren hasn haven hadn wouldn shouldn couldn mustn shan
"""
STOP_WORDS = frozenset(_SNOWBALL.split()) | frozenset(_MORE.split())


def is_stop_word(word: str) -> bool:
    return word.casefold().replace("’", "'") in STOP_WORDS
