"""The cases of ``benchmarks.freshness``, written for issue 30 (nothing tuned on them).

* ``PAIRS``: a fact, then, 90 days later, the fact that replaces it; the question asks for
  what is true now. The newer must come first.
* ``NAMESAKES``: two facts about two people of one name, told apart by their relation to the
  user; the question names the relation. The right person's fact must come first, whichever
  was said first (the right one is the older in three cases, the newer in three).
* ``FILLER``: facts every user also holds, about nothing the questions ask, so that no search
  ranks a store of two facts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    older: str
    newer: str
    question: str
    key: str  # the host's key for what the pair is about (a namesake pair: one each)
    newer_is_right: bool = True


PAIRS = (
    Case("I live in Boston.", "I moved to Denver last month.", "Where do I live?", "home_city"),
    Case(
        "I work as a nurse at the city hospital.",
        "I quit nursing and now work as a software engineer.",
        "What is my job?",
        "job",
    ),
    Case(
        "My favorite food is sushi.",
        "These days my favorite food is tacos.",
        "What is my favorite food?",
        "favorite_food",
    ),
    Case(
        "I drive a Honda Civic.",
        "I sold my Honda and now drive a Tesla Model 3.",
        "What car do I drive?",
        "car",
    ),
    Case(
        "My phone number is 555-0100.",
        "My new phone number is 555-0199.",
        "What is my phone number?",
        "phone",
    ),
    Case(
        "I am dating Sam.",
        "I broke up with Sam and now I am engaged to Chris.",
        "Who is my partner?",
        "partner",
    ),
    Case(
        "I go to the gym on Mondays.",
        "I switched my gym day to Thursdays.",
        "Which day do I go to the gym?",
        "gym_day",
    ),
)

NAMESAKES = (
    Case(
        "My sister Anna is a nurse in Chicago.",
        "My friend Anna is a teacher in Seattle.",
        "What does my sister Anna do?",
        "anna",
        newer_is_right=False,
    ),
    Case(
        "My brother Tom plays the guitar.",
        "My coworker Tom plays tennis.",
        "What does my coworker Tom play?",
        "tom",
    ),
    Case(
        "My boss Maria loves Italian food.",
        "My neighbor Maria loves Thai food.",
        "What food does my neighbor Maria like?",
        "maria",
    ),
    Case(
        "My son Leo is allergic to peanuts.",
        "My dog Leo is allergic to chicken.",
        "What is my son Leo allergic to?",
        "leo",
        newer_is_right=False,
    ),
    Case(
        "My cousin Ben lives in Austin.",
        "My roommate Ben lives in Portland.",
        "Where does my roommate Ben live?",
        "ben",
    ),
    Case(
        "My aunt Sara's birthday is in October.",
        "My friend Sara's birthday is in March.",
        "When is my aunt Sara's birthday?",
        "sara",
        newer_is_right=False,
    ),
)

FILLER = (
    "I have a golden retriever named Max.",
    "I read mostly science fiction novels.",
    "I was born in 1988.",
    "I speak Spanish and French.",
    "I am learning to bake sourdough bread.",
    "I went to Japan for a vacation last year.",
    "I prefer tea over coffee.",
    "I usually go to bed around midnight.",
)
