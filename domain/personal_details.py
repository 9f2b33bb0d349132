"""What in a text identifies a user, for the memory that every user's prompt carries.

Agent-scope memory rides in every user's context. A real small model filed "Alice is the
designer at Acme Studio and her email address is alice@acme.example" as the agent's own note,
so bob's prompt showed it (issue 40). The scope is the model's choice; these checks are not:
contact details (emails, phone numbers, handles and profile links), account, order and
ticket numbers, street addresses, and the names of the conversation's users (the agent's
level is "never about the people", what a user said about themselves included).

``personal_details`` returns the kinds found, never the matched text: a reason travels into
reports and logs, and a refused detail must not ride along with it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from eden_memory.domain.models.messages import Message, Role
from eden_memory.domain.scopes import Scope

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# "@alice_b" as a handle, not inside an email (the character before "@" is no word character).
_HANDLE = re.compile(r"(?<![\w.@])@[A-Za-z0-9_][A-Za-z0-9_.]{1,29}(?![\w@])")
_SOCIAL = (
    r"(?:twitter|x|instagram|facebook|fb|linkedin|github|gitlab|tiktok|youtube|threads|"
    r"mastodon\.\w+|bsky|reddit|medium|t|wa|telegram)\.(?:com|me|app|social|org)"
)
# A link to a person: a social site's path, or a path segment naming a user or profile.
_PROFILE_URL = re.compile(
    rf"(?:https?://)?(?:www\.)?{_SOCIAL}/\S+|"
    r"(?:https?://|www\.)\S*/(?:@|~|u/|user/|users/|profile/|profiles/|in/|people/)\S+",
    re.IGNORECASE,
)
# International (+33 6 12 34 56 78, 0033...), North-American ((555) 123-4567, 555-123-4567),
# or any run of 7+ digits in groups after a word that says it is a phone.
_PHONE = re.compile(
    r"(?<![\w+])(?:\+|00)\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,6}(?!\w)|"
    r"(?<!\w)\(\d{3}\)\s?\d{3}[\s.-]\d{4}(?!\w)|(?<![\w-])\d{3}[.-]\d{3}[.-]\d{4}(?![\w-])|"
    r"\b(?:phone|mobile|cell|tel|telephone|whatsapp|sms)\b\D{0,20}\d(?:[\s.()-]?\d){6,}",
    re.IGNORECASE,
)
_ACCOUNT_WORDS = (
    r"order|account|acct|ticket|invoice|booking|reservation|confirmation|customer|client|member|"
    r"membership|policy|case|claim|reference|ref|iban|card|passport|licen[cs]e|tracking|"
    r"subscription|contract|loyalty|patient|student|employee|badge"
)
# "#4417", "order 4417", "ticket no. AB-1234": a code of three characters or more with a
# digit ("#1 priority" is not one); an IBAN ("FR76 3000 6000 ...") by its shape.
_ACCOUNT = re.compile(
    r"(?<![\w&])#\s?(?=[\w-]*\d)[\w-]{3,}|"
    rf"\b(?i:{_ACCOUNT_WORDS})\b(?:\s+(?i:number|no\.?|num|id|code|#))?\s*[:#]?\s*"
    r"(?=[\w-]*\d)[A-Za-z0-9][\w-]{2,}|"
    r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}\b"
)
_STREET_TYPES = (
    r"street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|"
    r"square|sq|terrace|crescent|close|parkway|highway|hwy"
)
# Case matters for the street's name ("12 Baker Street", not "12 people in the way"); the
# kinds of street, the French, Iberian and Italian words before a name, the German endings
# and flat numbers are matched in any case.
_ADDRESS = re.compile(
    rf"\b\d{{1,5}}[A-Za-z]?,?\s+(?:[A-Z][\w'.-]*\s+){{1,4}}(?i:{_STREET_TYPES})\b|"
    r"\b\d{1,5}[A-Za-z]?,?\s+(?i:rue|rua|calle|avenida|viale|chemin|boulevard|avenue|"
    r"allée|impasse|travessa|strada|carrer)\s+\w+|"
    r"\b[A-ZÄÖÜ]\w*(?i:straße|strasse|weg|gasse|platz|allee|laan|gracht|vej|gatan)\s+\d{1,5}\b|"
    r"\b(?i:p\.?\s?o\.?\s?box|apt\.?|apartment)\s+#?\d+\w*"
)
_KINDS = (
    ("an email address", _EMAIL),
    ("a profile link", _PROFILE_URL),
    ("a phone number", _PHONE),
    ("an account, order or ticket number", _ACCOUNT),
    ("a street address", _ADDRESS),
    ("a user handle", _HANDLE),
)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
MIN_NAME_CHARS = 2


def personal_details(text: str, users: Iterable[str] = ()) -> tuple[str, ...]:
    """The kinds of identifying detail ``text`` holds, in a stable order; () when none.

    ``users`` are the names and ids of the users concerned: a capitalised word of the text
    that is one of them (or a part of one: "Alice" of "Alice Smith") names a user.
    """
    found = [kind for kind, pattern in _KINDS if pattern.search(text)]
    if names_a_user(text, users):
        found.append("a user's name")
    return tuple(found)


def names_a_user(text: str, users: Iterable[str]) -> bool:
    """Whether a capitalised word of ``text`` is a user's name or a part of one.

    Only capitalised words count: a user called "Will" or "May" is not named by "will".
    """
    parts = name_parts(users)
    return any(w[0].isupper() and _bare(w) in parts for w in _WORD.findall(text))


def name_parts(users: Iterable[str]) -> frozenset[str]:
    """The case-folded words of users' names and ids ("Alice Smith", "alice.smith")."""
    # An id that is an email names its person by the local part only (not "gmail", "com").
    spelled = (user.split("@")[0].replace(".", " ").replace("_", " ") for user in users)
    return frozenset(
        part
        for text in spelled
        for part in (p.casefold() for p in _WORD.findall(text))
        if len(part) >= MIN_NAME_CHARS
    )


def _bare(word: str) -> str:
    """A word without its possessive ("Alice's" is "alice")."""
    folded = word.casefold()
    for ending in ("'s", "\u2019s", "'"):
        if folded.endswith(ending):
            return folded[: -len(ending)]
    return folded


def people_of(messages: Iterable[Message], user_ids: Iterable[str]) -> tuple[str, ...]:
    """The names and ids by which a conversation's users may be named: the session's users
    and the authors of its user messages."""
    authors = (
        part
        for m in messages
        if m.role is Role.USER
        for part in (m.author_id, m.author_name)
        if part
    )
    return tuple(dict.fromkeys((*user_ids, *authors)))


def agent_scope_problem(text: str, users: Collection[str] = ()) -> str | None:
    """Why ``text`` may not be kept in agent scope, or None."""
    kinds = personal_details(text, users)
    if not kinds:
        return None
    return (
        f"holds {', '.join(kinds)}: agent memory is shown to every user, so a user's "
        "identifying details stay in that user's own memory"
    )


@dataclass(frozen=True)
class Placement:
    """Where a text the model filed under the agent is kept, and why it moved."""

    scope: Scope | None  # AGENT as filed, USER moved to the user's own memory, None refused
    why: str | None = None


def place_agent_text(text: str, users: Collection[str], user_scope_active: bool) -> Placement:
    """Agent scope unless ``text`` identifies a user; then the user's own scope when the
    session has exactly one user and user memory is on (``user_scope_active``), else
    nowhere: in a group, whose details they are is not known."""
    why = agent_scope_problem(text, users)
    if why is None:
        return Placement(Scope.AGENT)
    return Placement(Scope.USER if user_scope_active else None, why)
