"""What a consolidated text may not hold, whatever the model wrote (issue 40).

Two rules on the answer of a consolidation, beside the echo check: the agent's own section
is shown to every user, so it holds no user's identifying details
(``domain.personal_details``); and a consolidation invents nothing, so every specific of
the new text is found in its inputs (``domain.groundedness``). An answer that breaks one is
refused whole: the blob stays as it was and its notes stay unabsorbed, shown as recent
notes, for a later consolidation to merge.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from eden_memory.domain.groundedness import ungrounded_specifics
from eden_memory.domain.personal_details import agent_scope_problem
from eden_memory.domain.scopes import Scope

# Ungrounded specifics named in a reason, at most (a runaway answer is not quoted whole).
MAX_NAMED = 8


def blob_problem(
    scope: Scope, text: str, inputs: Sequence[str], users: Collection[str] = ()
) -> str | None:
    """Why the consolidated ``text`` of a ``scope`` is refused, or None.

    ``inputs`` are every text its prompt gave (the current blob, the notes, the owner's
    instructions); ``users`` the names and ids of the users its notes came from.
    """
    if scope is Scope.AGENT:
        problem = agent_scope_problem(text, users)
        if problem is not None:
            return problem
    invented = ungrounded_specifics(text, inputs)
    if not invented:
        return None
    named = ", ".join(invented[:MAX_NAMED]) + (", ..." if len(invented) > MAX_NAMED else "")
    return f"holds specifics none of its inputs gave ({named})"
