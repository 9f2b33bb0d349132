"""The demo's story: an events agent, two users, one group session, a changed preference and
a corrected fact. The lookup tables are what the offline model "finds" in each message."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from eden_memory.demo.lookup_model import LookupModel
from eden_memory.domain.models import Message, Role

AGENT_ID = "aurora-planner"


@dataclass(frozen=True)
class DemoSession:
    title: str
    session_id: str
    users: tuple[str, ...]
    turns: tuple[tuple[str, str, str], ...]  # (role, author, text)

    def messages(self, session_id: str, at: datetime) -> list[Message]:
        """The turns as messages of ``session_id``, a minute apart from ``at``."""
        return [
            Message(
                id=f"{session_id}-{i}",
                role=Role(role),
                text=text,
                sent_at=at + timedelta(minutes=i),
                author_id=author,
            )
            for i, (role, author, text) in enumerate(self.turns)
        ]


SESSIONS = (
    DemoSession(
        "Alice plans the festival",
        "alice-1",
        ("alice",),
        (
            (
                "user",
                "alice",
                "Hi, I'm Alice, the designer at Acme Studio. My email is alice@acme.example.",
            ),
            ("agent", "planner", "Nice to meet you, Alice. How can I help?"),
            ("user", "alice", "We are organising the Aurora festival. The budget is 40000 euros."),
            ("user", "alice", "Please keep your answers short, I read them on my phone."),
            ("agent", "planner", "Noted: short answers. What comes first?"),
            ("user", "alice", "Let's draft the poster brief today."),
        ),
    ),
    DemoSession(
        "Bob sets up the sound",
        "bob-1",
        ("bob",),
        (
            ("user", "bob", "Bob here, sound engineer for Aurora. My phone is +33 6 12 34 56 78."),
            ("user", "bob", "I want detailed technical answers with exact figures."),
            ("agent", "planner", "Understood. What do you need?"),
            ("user", "bob", "The main stage needs a 12 kW PA system."),
        ),
    ),
    DemoSession(
        "The team meets",
        "team-1",
        ("alice", "bob"),
        (
            ("user", "alice", "Team update: the festival moves to June 14."),
            ("user", "bob", "And the venue is confirmed: the Lyon docks."),
            ("user", "alice", "Bob, can you share your rider with me later?"),
            ("agent", "planner", "I will keep the new date and venue in mind."),
        ),
    ),
    DemoSession(
        "Alice comes back",
        "alice-2",
        ("alice",),
        (
            ("user", "alice", "Correction: the Aurora budget is 45000 euros, not 40000."),
            ("user", "alice", "Also, I'm now the lead designer at Acme Studio."),
            ("user", "alice", "Actually, longer and more detailed answers are fine now."),
            ("user", "alice", "Again, my email is alice@acme.example."),
            ("agent", "planner", "Got it: budget 45000 euros, and detailed answers from now on."),
        ),
    ),
)

QUERIES = (
    ("alice", ("festival budget", "Alice email")),
    ("alice", ("Bob phone number",)),
    ("bob", ("Bob phone number", "sound system power")),
)


def lookup_model() -> LookupModel:
    """The offline stand-in for the LLM, scripted for exactly this story."""
    t = {text: text for s in SESSIONS for _, _, text in s.turns}
    return LookupModel(
        facts={
            t["Hi, I'm Alice, the designer at Acme Studio. My email is alice@acme.example."]: [
                ("Alice's email is alice@acme.example", "user"),
                ("Alice works at Acme Studio as a designer", "user"),
            ],
            t["We are organising the Aurora festival. The budget is 40000 euros."]: [
                ("The Aurora festival budget is 40000 euros", "agent"),
            ],
            t["Bob here, sound engineer for Aurora. My phone is +33 6 12 34 56 78."]: [
                ("Bob's phone number is +33 6 12 34 56 78", "user"),
                ("Bob is the sound engineer of the Aurora festival", "agent"),
            ],
            t["The main stage needs a 12 kW PA system."]: [
                ("The Aurora main stage needs a 12 kW PA system", "agent"),
            ],
            t["Team update: the festival moves to June 14."]: [
                ("The Aurora festival takes place on June 14", "agent"),
            ],
            t["And the venue is confirmed: the Lyon docks."]: [
                ("The Aurora festival venue is the Lyon docks", "agent"),
            ],
            t["Correction: the Aurora budget is 45000 euros, not 40000."]: [
                ("The Aurora festival budget is 45000 euros", "agent"),
            ],
            t["Also, I'm now the lead designer at Acme Studio."]: [
                ("Alice works at Acme Studio as lead designer", "user"),
            ],
            t["Again, my email is alice@acme.example."]: [
                ("Alice's email is alice@acme.example", "user"),
            ],
        },
        notes={
            t["We are organising the Aurora festival. The budget is 40000 euros."]: [
                ("agent", "Current project: organising the Aurora festival"),
            ],
            t["Please keep your answers short, I read them on my phone."]: [
                ("user", "Alice wants short answers; she reads on her phone"),
            ],
            t["Let's draft the poster brief today."]: [
                ("session", "Goal today: draft the poster brief"),
            ],
            t["I want detailed technical answers with exact figures."]: [
                ("user", "Bob wants detailed technical answers with exact figures"),
            ],
            t["The main stage needs a 12 kW PA system."]: [
                ("session", "Working on the main stage sound setup"),
            ],
            t["Team update: the festival moves to June 14."]: [
                ("agent", "Aurora festival date moved to June 14"),
            ],
            t["Bob, can you share your rider with me later?"]: [
                ("session", "Open point: Bob shares his rider with Alice"),
            ],
            t["Actually, longer and more detailed answers are fine now."]: [
                ("user", "Alice now prefers longer, detailed answers"),
            ],
            t["Correction: the Aurora budget is 45000 euros, not 40000."]: [
                ("session", "Budget corrected during this session"),
            ],
        },
        replaces={
            "Alice now prefers longer, detailed answers": (
                "Alice wants short answers; she reads on her phone"
            ),
        },
        dedup={
            "The Aurora festival budget is 45000 euros": (
                "DELETE",
                "The Aurora festival budget is 40000 euros",
                None,
            ),
            "Alice works at Acme Studio as lead designer": (
                "UPDATE",
                "Alice works at Acme Studio as a designer",
                "Alice works at Acme Studio as lead designer",
            ),
        },
    )
