"""Keyword candidates without Atlas Search: all visible facts, or those a ``$text`` index finds.

Where the server has a text index on ``content`` (``setup_indexes`` creates one, language
``english``: MongoDB stems the words and drops its stop words), ``$text`` narrows the
candidates to the facts holding a query word in some form and BM25 ranks them; the corpus
size still counts every visible fact, so scores stay close to the full scan's (only the
average length is the candidates'). It is sent the query's words that count, plainly (a
"-word" or a quote in the question is never read as ``$text`` syntax). MongoDB stems with
Snowball's English stemmer, a revision of Porter's: the rare word the two cut apart
("news", "new") and a typo (``$text`` has no fuzzy matching) then find nothing through
``$text``; that is the price of the index. A query of stop words only scans, since
``$text`` would drop every word of it. Without an index (mongomock, SecantusDB) every
visible fact is a candidate.
"""

from __future__ import annotations

from pymongo.errors import OperationFailure, PyMongoError

from eden_memory.adapters.stores.mongo.compat import Document
from eden_memory.adapters.stores.mongo.context import MongoContext
from eden_memory.adapters.stores.mongo.errors import translate
from eden_memory.adapters.stores.mongo.keyword import query_words
from eden_memory.adapters.stores.text_terms import only_stop_words

Candidates = list[tuple[str, str]]
CONTENT = {"content": 1}


def no_text_index(error: BaseException) -> bool:
    """The server cannot answer ``$text`` here: no text index, or no ``$text`` at all."""
    if isinstance(error, NotImplementedError):
        return True
    return isinstance(error, OperationFailure) and (error.code == 27 or "$text" in str(error))


class TextIndex:
    """Whether the server answers ``$text`` (None: not known yet), and the candidates it finds."""

    def __init__(self, ctx: MongoContext) -> None:
        self.ctx = ctx
        self.available: bool | None = None

    async def candidates(self, text: str, found: Document) -> tuple[Candidates, int | None]:
        """(id, content) of the candidates, and the visible total when they are a subset."""
        words = query_words(text)
        if self.available is not False and not only_stop_words(words):
            narrowed = await self._text_matches(" ".join(words), found)
            if narrowed is not None:
                return narrowed, await self.ctx.facts.count(found)
        documents = await self.ctx.facts.find(found, CONTENT)
        return [(str(d["_id"]), str(d["content"])) for d in documents], None

    async def _text_matches(self, text: str, found: Document) -> Candidates | None:
        query = {"$text": {"$search": text}, "$and": [found]}
        try:
            documents = await self.ctx.facts.raw.find(query, CONTENT).to_list(None)
        except (PyMongoError, NotImplementedError) as error:
            if not no_text_index(error):
                if isinstance(error, PyMongoError):
                    raise translate(error, "$text search") from error
                raise
            self.available = False
            return None
        self.available = True
        return [(str(d["_id"]), str(d["content"])) for d in documents]
