"""Every prompt of the library rendered once with its own worked example, as sentences.

A memory that nearly repeats a sentence of any prompt, whatever names it swapped, was
copied from the prompt, not learned (``domain.near_copies``): a model that saw the
consolidation example while forming notes could still file it. The prompts are rendered
here, from their own builders, so a changed prompt is checked by its new words.
"""

from __future__ import annotations

from functools import cache

from eden_memory.application.prompts import facts, reflections
from eden_memory.application.prompts.consolidation import consolidation_prompt
from eden_memory.application.prompts.dedup import dedup_prompt
from eden_memory.application.prompts.expansion import expansion_prompt
from eden_memory.application.prompts.reranking import rerank_prompt
from eden_memory.domain.dedup import NewFact
from eden_memory.domain.models import ConsolidatedMemory
from eden_memory.domain.near_copies import PromptSentence, prompt_sentences
from eden_memory.domain.scopes import HIERARCHY, Scope, ScopeKey

_AGENT = "catalogue"
_KEYS = (
    ScopeKey.agent(_AGENT),
    ScopeKey.user(_AGENT, "someone"),
    ScopeKey.session(_AGENT, "a-session"),
)


def prompt_texts() -> tuple[str, ...]:
    """The system text and the prompt of every call, as each builder writes them."""
    texts = [
        *facts.fact_extraction_prompt(facts.EXAMPLE_MESSAGES, (Scope.USER, Scope.AGENT), 30),
        *reflections.reflection_prompt(reflections.EXAMPLE_MESSAGES, HIERARCHY, {}, {}, [], 35),
        *dedup_prompt([NewFact("A fact.", Scope.USER)], [[]], [0], 30),
        *expansion_prompt(["A question?"], 2),
        *rerank_prompt(["A question?"], ["A memory."]),
    ]
    for key in _KEYS:
        empty = ConsolidatedMemory.empty(key, 200)
        texts += consolidation_prompt(empty, [])
        texts += consolidation_prompt(empty.model_copy(update={"content": "A text."}), [])
    return tuple(texts)


@cache
def prompt_catalogue() -> tuple[PromptSentence, ...]:
    """The sentences of every prompt, computed once a process."""
    return prompt_sentences(prompt_texts())
