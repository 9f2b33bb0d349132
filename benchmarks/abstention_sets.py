"""Tiny stores for the abstention benchmark: a few facts of one user, questions about other
things (which should find nothing), and questions they answer (which should find their fact).

Written for this benchmark, not taken from any dataset; the unrelated questions ask what a
host's user plausibly asks an assistant that knows nothing about it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TinyStore:
    facts: tuple[str, ...]
    unrelated: tuple[str, ...]  # nothing stored answers these
    answered: tuple[tuple[str, int], ...]  # a question and the index of the fact answering it


TINY_STORES = (
    TinyStore(
        (
            "The user visited Kyoto in April and saw the cherry blossoms",
            "The user stayed at a ryokan near Arashiyama for three nights",
            "The user flew to Japan with ANA from Frankfurt",
        ),
        ("What car does the user drive?", "What is the user's favourite football team?"),
        (("Where did the user stay in Kyoto?", 1), ("Which airline did the user fly?", 2)),
    ),
    TinyStore(
        (
            "The user is allergic to peanuts",
            "The user's daughter Mia starts school in September",
            "The user works night shifts as a nurse",
            "The user prefers tea to coffee",
        ),
        ("Which programming language does the user like?", "Where did the user grow up?"),
        (("What is the user allergic to?", 0), ("What does the user do for work?", 2)),
    ),
    TinyStore(
        (
            "The user's laptop is a ThinkPad X1 Carbon",
            "The user runs Arch Linux with the Sway window manager",
            "The user's backup drive is a 2 TB Samsung T7",
        ),
        ("What is the name of the user's dog?", "How old is the user's mother?"),
        (("Which operating system does the user run?", 1), ("What laptop does the user have?", 0)),
    ),
    TinyStore(
        (
            "The user plays the cello in a community orchestra",
            "The orchestra rehearses on Tuesday evenings",
            "The user bought a new bow from a luthier in Cremona",
            "The user's concert is on 14 June",
            "The user practises scales for 30 minutes every morning",
        ),
        ("What is the user's salary?", "Which dentist does the user see?"),
        (("Which instrument does the user play?", 0), ("When is the user's concert?", 3)),
    ),
    TinyStore(
        (
            "The user is training for the Berlin marathon",
            "The user's long run is on Sunday mornings",
            "The user's target time is 3 hours 45 minutes",
        ),
        ("What is the user's favourite novel?", "Does the user have a mortgage?"),
        (("Which marathon is the user training for?", 0), ("What is the user's target time?", 2)),
    ),
    TinyStore(
        (
            "The user's landlord is raising the rent by 8 percent in March",
            "The user lives in a two-bedroom flat in Leeds",
            "The user's lease ends in August",
            "The user shares the flat with a friend called Tom",
        ),
        ("What did the user eat for breakfast?", "Which vaccines has the user had?"),
        (("Where does the user live?", 1), ("When does the user's lease end?", 2)),
    ),
    TinyStore(
        (
            "The user is learning Portuguese before moving to Lisbon",
            "The user takes Portuguese lessons online twice a week",
            "The user's teacher is called Beatriz",
        ),
        ("What kind of car does the user want to buy?", "How tall is the user?"),
        (("Which language is the user learning?", 0), ("Who is the user's teacher?", 2)),
    ),
    TinyStore(
        (
            "The user's cat Pixel needs a kidney diet",
            "Pixel is twelve years old",
            "The vet appointment is every three months",
        ),
        ("What is the user's job title?", "Which bank does the user use?"),
        (("What diet does the user's cat need?", 0), ("How old is Pixel?", 1)),
    ),
    TinyStore(
        (
            "The user is renovating the kitchen with oak cabinets",
            "The user chose a quartz worktop",
            "The electrician comes on Friday",
            "The renovation budget is 18,000 pounds",
        ),
        ("What music does the user listen to?", "Where did the user go to university?"),
        (("What worktop did the user choose?", 1), ("What is the renovation budget?", 3)),
    ),
    TinyStore(
        (
            "The user grows tomatoes and basil on the balcony",
            "The user composts kitchen scraps in a worm bin",
            "The user wants to try growing chillies next year",
        ),
        ("What phone does the user have?", "When is the user's birthday?"),
        (("What does the user grow on the balcony?", 0), ("How does the user compost?", 1)),
    ),
)
