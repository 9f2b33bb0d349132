"""Steps 2 and 4: ask for facts and for reflections, and keep only what the rules allow."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import NamedTuple

from eden_memory.application.calls import ModelRouter
from eden_memory.application.formation.agent_scope import fact_placement, note_placement
from eden_memory.application.formation.reports import Rejected
from eden_memory.application.prompts.catalogue import prompt_catalogue
from eden_memory.application.prompts.facts import fact_extraction_prompt
from eden_memory.application.prompts.reflections import reflection_prompt
from eden_memory.application.schemas import ExtractedFact, ExtractedFacts, ExtractedReflections
from eden_memory.domain.citations import trimmed_citation
from eden_memory.domain.dedup import NewFact
from eden_memory.domain.errors import InvalidMemoryTextError
from eden_memory.domain.fact_checks import FactChecks
from eden_memory.domain.ids import MessageId, UserId
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.models import ConsolidatedMemory, Message, Reflection
from eden_memory.domain.models.provenance import speakers
from eden_memory.domain.relative_dates import has_relative_date, resolve_relative_dates
from eden_memory.domain.scaffolding import Scaffolding, echoed_scaffolding, scaffolding_of
from eden_memory.domain.scopes import ActiveScopes, Scope
from eden_memory.domain.settings import MemorySettings
from eden_memory.domain.text import single_line


@dataclass(frozen=True)
class SourcedFact:
    """A new fact with the messages it came from, the users who said them (provenance), and
    when they were said."""

    fact: NewFact
    message_ids: tuple[MessageId, ...]
    said_at: datetime
    user_ids: tuple[UserId, ...] = ()

    @classmethod
    def of(
        cls, fact: NewFact, messages: Sequence[Message], session_users: Sequence[UserId] = ()
    ) -> SourcedFact:
        return cls(
            fact,
            tuple(m.id for m in messages),
            max(m.sent_at for m in messages),
            speakers(messages, session_users),
        )


@dataclass
class Extracted:
    facts: list[SourcedFact] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    moved: list[Rejected] = field(default_factory=list)  # filed as agent, kept as the user's
    capped: int = 0  # items of the answer past the cap: neither checked nor kept
    citations_trimmed: int = 0  # facts whose citation (or the whole batch) was cut to the closest
    dates_resolved: int = 0  # facts whose relative dates the rule made absolute


async def extract_facts(
    models: ModelRouter,
    messages: Sequence[Message],
    scopes: ActiveScopes,
    settings: MemorySettings,
    instructions: str,
    cap: int,
    session_users: Sequence[UserId] = (),
) -> Extracted:
    """One fast call; a fact of an inactive scope, over the word limit, copied from a message
    or from the prompt's example, or spoken in the first person is rejected, with why
    (``domain.fact_checks``, ``domain.scaffolding``); a citation of more than three messages
    (or of none: the whole batch) is trimmed to the three closest (``domain.citations``);
    relative dates are made absolute (``domain.relative_dates``). Once ``cap`` facts passed,
    the rest of the answer is only counted (``domain.formation_caps``): checking it would
    cost what the cap bounds."""
    system, prompt = fact_extraction_prompt(
        messages, scopes.fact_scopes, settings.facts.max_words, instructions
    )
    answer = await models.ask(ModelRole.FAST, "fact_extraction", system, prompt, ExtractedFacts)
    out = Extracted()
    checks = FactChecks.of(messages)
    # The prompt's worked example is invented: a fact repeating it was copied, not extracted.
    carried = [m.text for m in messages]
    scaffold = scaffolding_of(f"{system}\n{prompt}", carried, prompt_catalogue())
    for index, item in enumerate(answer.facts):
        if len(out.facts) == cap:
            out.capped = len(answer.facts) - index
            break
        kept = _fact(item, messages, scopes, settings, (scaffold, checks), session_users)
        if isinstance(kept, Rejected):
            out.rejected.append(kept)
            continue
        out.facts.append(kept.fact)
        if kept.moved is not None:
            out.moved.append(kept.moved)
        out.citations_trimmed += kept.trimmed
        out.dates_resolved += kept.dated
    return out


class _Kept(NamedTuple):
    fact: SourcedFact
    trimmed: bool  # its citation was cut to the closest messages
    dated: bool  # its relative dates were made absolute
    moved: Rejected | None = None  # a fact filed as the agent's, kept as the user's: why


def _fact(
    item: ExtractedFact,
    messages: Sequence[Message],
    scopes: ActiveScopes,
    settings: MemorySettings,
    checks: tuple[Scaffolding, FactChecks],
    session_users: Sequence[UserId],
) -> _Kept | Rejected:
    """The fact as it is kept, or why it is not."""
    scope = Scope(item.scope)
    if scope not in scopes.fact_scopes:
        return Rejected(item.content, f"scope {scope} is not active")
    try:
        content = single_line(item.content, max_words=settings.facts.max_words, what="fact")
    except InvalidMemoryTextError as error:
        return Rejected(item.content, str(error))
    numbers = dict.fromkeys(i for i in item.source_messages if 1 <= i <= len(messages))
    sources = tuple(messages[i - 1] for i in numbers)
    scaffold, facts = checks
    problem = facts.problem(content, sources) or _echo(content, scaffold)
    if problem is not None:
        return Rejected(item.content, problem)
    placed = fact_placement(item.content, content, scope, scopes)
    if isinstance(placed, Rejected):
        return placed
    offered = sources or messages
    cited = _cited(content, offered)
    dated = _dated(content, cited, settings.facts.max_words)
    return _Kept(
        SourcedFact.of(NewFact(dated, placed.scope), cited, session_users),
        len(cited) < len(offered),
        dated != content,
        placed.moved,
    )


def _dated(content: str, cited: Sequence[Message], max_words: int) -> str:
    """The fact with "yesterday", "last Saturday"... made absolute against the day of the
    message that says it (the first cited message with a relative date, else the last); kept
    as the model wrote it if the dates would take it over the word limit."""
    if not has_relative_date(content):
        return content
    saying = next((m for m in cited if has_relative_date(m.text)), cited[-1])
    return _dated_on(content, saying.sent_at.date(), max_words, "fact")


def _dated_on(text: str, day: date, max_words: int, what: str) -> str:
    """``text`` (which holds a relative date) dated from ``day``, unless that passes the limit."""
    try:
        return single_line(resolve_relative_dates(text, day), max_words=max_words, what=what)
    except InvalidMemoryTextError:
        return text


def _cited(content: str, sources: Sequence[Message]) -> tuple[Message, ...]:
    """The fact's sources, a citation wider than ``MAX_SOURCES`` trimmed (``domain.citations``)."""
    return tuple(sources[i] for i in trimmed_citation(content, [m.text for m in sources]))


@dataclass
class ExtractedNotes:
    by_scope: dict[Scope, list[str]] = field(default_factory=dict)
    rejected: list[Rejected] = field(default_factory=list)
    moved: list[Rejected] = field(default_factory=list)  # filed as agent, kept as the user's
    capped: dict[Scope, int] = field(default_factory=dict)  # notes past the cap, by level
    dates_resolved: int = 0


async def extract_reflections(
    models: ModelRouter,
    role: ModelRole,
    messages: Sequence[Message],
    scopes: ActiveScopes,
    blobs: Mapping[Scope, ConsolidatedMemory],
    recent: Mapping[Scope, Sequence[Reflection]],
    new_facts: Sequence[str],
    settings: MemorySettings,
    instructions: str,
    per_scope: int,
    people: Sequence[str] = (),
) -> ExtractedNotes:
    """One call over the current memory, the new facts and the conversation; a note of an
    inactive scope, over the word limit, echoing the prompt, copied from a message or spoken
    in the first person is rejected, with why. Once ``per_scope`` notes of a level passed,
    the level's other notes are only counted (``domain.formation_caps``). A note carries no
    citation, so its relative dates are made absolute only when every message was sent on
    one day. A note filed under the agent that identifies a user (``people``: the names and
    ids of the conversation's users) goes to that user's own memory, or nowhere in a group
    (``domain.personal_details``)."""
    active = [s for s in (Scope.AGENT, Scope.USER, Scope.SESSION) if s in scopes.scopes]
    system, prompt = reflection_prompt(
        messages,
        active,
        blobs,
        recent,
        new_facts,
        settings.reflections.max_words,
        instructions,
        per_scope,
    )
    answer = await models.ask(role, "reflection_extraction", system, prompt, ExtractedReflections)
    shown = [
        *(b.content for b in blobs.values()),
        *(r.content for notes in recent.values() for r in notes),
        *new_facts,
        *(m.text for m in messages),
        instructions,
    ]
    scaffold = scaffolding_of(f"{system}\n{prompt}", shown, prompt_catalogue())
    checks = FactChecks.of(messages)
    days = {m.sent_at.date() for m in messages}
    # A note cites nothing: only a batch said on one day tells which day it counts from.
    said_on = days.pop() if len(days) == 1 else None
    out = ExtractedNotes()
    moved: list[str] = []
    for scope in (Scope.AGENT, Scope.USER, Scope.SESSION):
        texts: list[str] = getattr(answer, scope.value)
        kept: list[str] = []
        for index, text in enumerate(texts):
            if len(kept) == per_scope:
                out.capped[scope] = len(texts) - index
                break
            note = _note(text, scope, scopes, settings, (scaffold, checks))
            if isinstance(note, Rejected):
                out.rejected.append(note)
                continue
            note = _note_dated(note, said_on, settings, out)
            placed = note_placement(text, note, scope, people, scopes)
            if isinstance(placed, Rejected):
                out.rejected.append(placed)
            elif placed.moved is not None:
                out.moved.append(placed.moved)
                moved.append(note)
            else:
                kept.append(note)
        # Moved notes were kept under the agent's cap: they do not take the user's places.
        kept = [*moved, *kept] if scope is Scope.USER else kept
        if kept:
            out.by_scope[scope] = kept
    return out


def _note_dated(
    note: str, said_on: date | None, settings: MemorySettings, out: ExtractedNotes
) -> str:
    """A note's "last Saturday" as a date, when the batch was all said on one day (else which
    day it counts from is unknown: left as the model wrote it)."""
    if said_on is None or not has_relative_date(note):
        return note
    dated = _dated_on(note, said_on, settings.reflections.max_words, "reflection")
    out.dates_resolved += dated != note
    return dated


def _note(
    text: str,
    scope: Scope,
    scopes: ActiveScopes,
    settings: MemorySettings,
    checks: tuple[Scaffolding, FactChecks],
) -> str | Rejected:
    """The note as it is kept, or why it is not: the checks facts get, and the echo check."""
    if scope not in scopes.scopes:
        return Rejected(text, f"scope {scope} is not active")
    try:
        note = single_line(text, max_words=settings.reflections.max_words, what="reflection")
    except InvalidMemoryTextError as error:
        return Rejected(text, str(error))
    scaffold, messages = checks
    problem = _echo(note, scaffold) or messages.problem(note, what="reflection")
    return note if problem is None else Rejected(text, problem)


def _echo(text: str, scaffold: Scaffolding) -> str | None:
    echoed = echoed_scaffolding(text, scaffold)
    return f"echoes the prompt ({', '.join(echoed)})" if echoed else None
