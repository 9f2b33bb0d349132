"""Fact extraction: the fast model, the conversation only, no memory context.

Written for a 1.5B model as much as for a large one (issue 15): short numbered rules, scopes
shown by example, one worked example with invented people, and the conversation as data.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta

from eden_memory.application.prompts.conversation import (
    DATA_NOTE,
    instructions_block,
    render_conversation,
)
from eden_memory.domain.models import Message, Role
from eden_memory.domain.scopes import Scope
from eden_memory.domain.xml_context import escape

SYSTEM = """You write the long-term facts an AI agent keeps from its conversations. The agent
searches them later to answer questions like "Where does Ana work?" or "When did Ana move?".

Rules for every fact:
1. One statement per fact: "Ana is a nurse and lives in Porto" is two facts.
2. Name who it is about, in the third person: "Ana is a nurse", never "I am a nurse" and
   never "the user".
3. Write it in your own words. Never copy a message.
4. Be specific: keep the names, titles, places, numbers and dates the message gives:
   "Ana adopted a cat named Miso", not "Ana has a pet".
5. Turn relative dates into calendar dates, counted from the date of the message that says
   them: "last Sunday" in a message sent on Wed 2024-03-13 is Sunday 10 March 2024.
6. At most {max_words} words.

Keep what stays true and may be asked about later: who people are, their work, family, home,
pets, hobbies, plans, what they did and when, places, names, numbers. A past event with its
date stays true. Leave out greetings, thanks, compliments, small talk, and suggestions the
agent made that nobody took up.

Not facts (the agent's notes hold these, so leave them out here):
- how someone wants the agent to answer or behave ("wants short answers");
- opinions ("thinks the film was too long");
- what the conversation is doing ("asks for a plan", "shares a photo");
- passing state ("is tired today", "is busy this week").

{data_note}"""

_SAID = datetime(2024, 3, 13, 9, 10, tzinfo=UTC)  # a Wednesday
EXAMPLE_MESSAGES = (
    Message(
        id="x1",
        role=Role.USER,
        text="Hi! Last Sunday I adopted a cat, Miso. I work nights at Porto General now.",
        sent_at=_SAID,
        author_name="Ana",
    ),
    Message(
        id="x2",
        role=Role.AGENT,
        text="Congratulations! The Rua Nova market is closed on Mondays, by the way.",
        sent_at=_SAID + timedelta(minutes=1),
    ),
    Message(
        id="x3",
        role=Role.USER,
        text="Thanks! My brother Rui visits this Friday.",
        sent_at=_SAID + timedelta(minutes=2),
        author_name="Ana",
    ),
)
# (content, scope, source messages): the example's answer, shown for the active scopes only.
# In message order: the request asks the model to walk the messages from the first.
EXAMPLE_FACTS = (
    ("Ana adopted a cat named Miso on Sunday 10 March 2024.", Scope.USER, 1),
    ("Ana works night shifts at Porto General hospital.", Scope.USER, 1),
    ("The Rua Nova market is closed on Mondays.", Scope.AGENT, 2),
    ("Ana's brother is called Rui.", Scope.USER, 3),
    ("Rui visits Ana on Friday 15 March 2024.", Scope.USER, 3),
)

# The answer's shape with three entries: shown one entry, the model answered one fact or two.
# The message number comes first, so that the model picks a message, then says what it tells.
_ENTRY = '{"source_messages": [...], "content": "...", "scope": "..."}'
ANSWER_SHAPE = f'{{"facts": [{_ENTRY}, {_ENTRY}, {_ENTRY}, ...]}}'

SCOPES = {
    Scope.USER: '"user": about the people the agent talks with, useful in later talks with '
    'this user ("Ana works night shifts").',
    Scope.AGENT: '"agent": useful in the agent\'s talks with anyone: about the agent itself, '
    'its projects, or the wider world ("The Rua Nova market is closed on Mondays").',
}


def fact_extraction_prompt(
    messages: Sequence[Message],
    scopes: Collection[Scope],
    max_words: int,
    memory_instructions: str = "",
) -> tuple[str, str]:
    allowed = "\n".join(f"- {SCOPES[s]}" for s in (Scope.USER, Scope.AGENT) if s in scopes)
    system = SYSTEM.format(max_words=max_words, data_note=DATA_NOTE)
    system += "\n\n" + example(scopes)
    people = speakers_in_order(messages)
    who = f"The people speaking: {', '.join(people)}.\n" if people else ""
    prompt = f"""Give every fact exactly one scope, chosen from these (no others are allowed):
{allowed}
{instructions_block(memory_instructions)}
{render_conversation(messages)}

{who}Go through the messages in order. For each message in which someone tells what they did,
do, have, are or plan, write each new thing it tells as its own fact, naming who it is about;
skip a message that tells nothing lasting or nothing new, and never write a fact twice.
In "source_messages" give the numbers of the one to three messages that state the fact, not
every message about its topic.
Answer as JSON, one entry for each fact (a message that says several things gives several):
{ANSWER_SHAPE}"""
    return system, prompt


def speakers_in_order(messages: Sequence[Message]) -> list[str]:
    """The people who speak, by name, in the order they first do. Asked for "every fact",
    Qwen2.5-1.5B gave one or two broad ones; asked person by person, several of each."""
    names = (" ".join((m.author_name or "").split()) for m in messages)
    return [escape(name) for name in dict.fromkeys(names) if name]


def example(scopes: Collection[Scope]) -> str:
    """The worked example, its answer limited to the scopes the model may use."""
    facts = ",\n".join(
        f'{{"source_messages": [{source}], "content": "{text}", "scope": "{scope.value}"}}'
        for text, scope, source in EXAMPLE_FACTS
        if scope in scopes
    )
    return (
        "Example (invented people; use only what the real conversation says):\n"
        f"{render_conversation(EXAMPLE_MESSAGES)}\n"
        f'Answer: {{"facts": [\n{facts}]}}'
    )
