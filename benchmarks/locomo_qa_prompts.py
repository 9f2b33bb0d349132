"""What the answering and the judging models are asked, in the project's own words.

The answering model gets what a host would give its own model: the ``<MemoryContext>`` XML
of the conversation and the ``search_facts`` results for the question as the tool renders
them (``adapters.tools.rendering``), with today's date, since both show a memory's age
("12d ago") rather than its date. The judge follows the LoCoMo J protocol as mem0 and Zep
report it: the answer against the gold answer, CORRECT or WRONG, generous on wording and
format, strict on content. Both answer in JSON (``Answer``, ``Verdict``) because the LLM
port is structured output only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

ANSWER_SYSTEM = """You answer questions about the people an AI agent has talked with, using
only the agent's memory of those conversations: its memory context (notes and recent facts)
and the facts a search found for the question.

- Memories show their age ("12d ago"), counted back from today's date.
- When memories disagree, the most recent one wins.
- Answer in a few words (at most 10): a name, a place, a date, a short phrase.
- Give a date as a calendar date ("7 May 2023"), never as "last week" or "12d ago".
- When the memory does not say it outright, give your best inference from what it does say;
  answer "unknown" only when nothing in it bears on the question."""

ANSWER_PROMPT = """Today is {today}.

{context}

{results}

Question: {question}
Answer as JSON: {{"answer": "..."}}"""

JUDGE_SYSTEM = """You grade an answer to a question about a conversation by comparing it with
the gold answer a person wrote.

CORRECT: the answer gives what the gold answer gives on the point the question asks, in any
wording or format. A longer answer that contains it, a synonym, or a date written another
way that names the same day, month or year all count.
WRONG: the answer names something else, misses the point, contradicts the gold answer, or
says it does not know.

Be generous about form and strict about content."""

JUDGE_PROMPT = """Question: {question}
Gold answer: {gold}
Answer to grade: {answer}

Answer as JSON: {{"label": "CORRECT"}} or {{"label": "WRONG"}}"""


class Answer(BaseModel):
    answer: str


class Verdict(BaseModel):
    label: Literal["CORRECT", "WRONG"]


def answer_prompt(question: str, context_xml: str, results: str, now: datetime) -> str:
    context = context_xml or "(the memory context is empty)"
    today = f"{now:%A} {now.day} {now:%B %Y}"
    return ANSWER_PROMPT.format(today=today, context=context, results=results, question=question)


def judge_prompt(question: str, gold: str, answer: str) -> str:
    return JUDGE_PROMPT.format(question=question, gold=gold, answer=answer or "(no answer)")
