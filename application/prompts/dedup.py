"""The dedup decision: one call for every new fact that has similar existing facts."""

from __future__ import annotations

from collections.abc import Sequence

from eden_memory.domain.dedup import Candidate, NewFact
from eden_memory.domain.xml_context import escape

SYSTEM = """You maintain a fact store without duplicates or contradictions. For each new fact you
see the existing facts most similar to it, and choose one action:

- ADD: it is new information that none of the existing facts holds.
- UPDATE: it refines, completes or corrects one existing fact; give the merged sentence in
  "text" (at most {max_words} words) and that fact's id in "target_id". Prefer UPDATE over ADD
  when both would leave two facts saying nearly the same thing.
- DELETE: it contradicts one existing fact, which is no longer true (a changed preference, a
  new address, a corrected date); give that fact's id in "target_id" and the new fact's final
  sentence in "text". The old fact is archived and the new one stored.
- NONE: one existing fact already says the same thing; give its id in "target_id".

Only ids listed under the same new fact may be used. Never move information between scopes.
Give exactly one decision per new fact, with a short reason."""


def dedup_prompt(
    facts: Sequence[NewFact],
    candidates: Sequence[Sequence[Candidate]],
    indexes: Sequence[int],
    max_words: int,
) -> tuple[str, str]:
    blocks = []
    for index in indexes:
        fact = facts[index]
        shown = "\n".join(
            f'  - id="{escape(c.fact_id)}" scope={c.scope.value} '
            f"similarity={c.similarity:.2f}: {escape(c.content)}"
            for c in candidates[index]
        )
        blocks.append(
            f"New fact {index} (scope {fact.scope.value}): {escape(fact.content)}\n"
            f"  Similar existing facts:\n{shown}"
        )
    prompt = (
        "<new_facts>\n" + "\n\n".join(blocks) + "\n</new_facts>\n\n"
        'Answer as JSON: {"decisions": [{"fact": <number>, "action": "ADD|UPDATE|DELETE|NONE", '
        '"target_id": "..." or null, "text": "..." or null, "reason": "..."}]}'
    )
    return SYSTEM.format(max_words=max_words), prompt
