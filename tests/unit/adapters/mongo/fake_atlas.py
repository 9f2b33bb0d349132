"""A stand-in for Atlas Search around mongomock, for tests of the Atlas code paths.

It records every ``$vectorSearch`` / ``$search`` pipeline the store sends
and answers with the (id, score) pairs a test scripted whose documents mongomock holds,
shaped by the pipeline's last ``$project`` as Atlas would shape them (a field the store did
not ask for is not there). Search indexes are listed, created and updated in memory. Everything else
is plain mongomock (through mongomock-motor, so the store sees a Motor database).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mongomock_motor import AsyncMongoMockClient
from pymongo.errors import OperationFailure
from pymongo.operations import SearchIndexModel

from eden_memory.adapters.stores.mongo.indexes import SearchIndexSpec, search_indexes
from eden_memory.adapters.stores.mongo.options import MongoStoreOptions
from eden_memory.adapters.stores.stemming import porter_stem
from tests.unit.adapters.mongo.builders import DIM

Doc = dict[str, Any]
SEARCH_STAGES = ("$vectorSearch", "$search")
READY = "READY"


def _listing(spec: SearchIndexSpec, status: str, queryable: bool) -> Doc:
    """An index as ``$listSearchIndexes`` shows it (fields starting ``_`` are the fake's)."""
    return {
        "name": spec.name,
        "type": spec.type,
        "status": status,
        "queryable": queryable,
        "latestDefinition": spec.definition,
    }


@dataclass
class Atlas:
    """What the fake Atlas answers, and what it was asked."""

    answers: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    pipelines: list[list[Doc]] = field(default_factory=list)
    indexes: list[Doc] = field(default_factory=list)
    errors: dict[str, Exception] = field(default_factory=dict)
    flaky: dict[str, list[Exception]] = field(default_factory=dict)  # raised once each, in turn
    queryable_after_lists: int = 0
    lists: int = 0
    text_index: bool = False  # answer $text queries (a server with a text index)
    text_queries: int = 0
    text_searches: list[str] = field(default_factory=list)
    # Collections sharded on these fields: an upsert must name each by equality, as mongos
    # needs to route it (collection name -> shard key fields).
    shard_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    upserts: int = 0

    def ready(self, *names: str, dimension: int = DIM) -> None:
        """The store's search indexes (for ``dimension``), READY with their definitions."""
        specs = search_indexes(dimension, MongoStoreOptions())
        self.indexes = [_listing(s, READY, True) for s in specs if s.name in names]
        for index in self.indexes:
            index["_served"] = index["latestDefinition"]

    def finish_builds(self) -> None:
        """Every build is done: the next listing shows each index READY."""
        for index in self.indexes:
            index["_built_at"] = -1

    def stale(self) -> None:
        for index in self.indexes:
            index["status"] = "STALE"


def server_error(code: int, code_name: str, errmsg: str) -> OperationFailure:
    """An error as pymongo raises it from a server's reply: message, code and the reply."""
    reply = {"ok": 0.0, "errmsg": errmsg, "code": code, "codeName": code_name}
    return OperationFailure(errmsg, code, reply)


def _stems(text: str) -> set[str]:
    return {porter_stem(word) for word in re.findall(r"\w+", text.lower())}


class _Cursor:
    def __init__(self, fetch: Any) -> None:
        self._fetch = fetch

    async def to_list(self, length: int | None = None) -> list[Doc]:
        found: list[Doc] = await self._fetch()
        return found


class FakeAtlasCollection:
    def __init__(self, inner: Any, atlas: Atlas) -> None:
        self._inner = inner
        self._atlas = atlas

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def find(self, filter: Doc | None = None, *args: Any, **kwargs: Any) -> Any:
        """``$text`` as a server with an English text index answers it: any query stem.

        (MongoDB stems with Snowball's English stemmer; Porter's stands in for it here.)
        """
        if filter is None or "$text" not in filter or not self._atlas.text_index:
            return self._inner.find(filter, *args, **kwargs)
        self._atlas.text_queries += 1
        self._atlas.text_searches.append(str(filter["$text"]["$search"]))
        terms = _stems(str(filter["$text"]["$search"]))
        rest = {k: v for k, v in filter.items() if k != "$text"}
        cursor = self._inner.find(rest, *args, **kwargs)

        async def matching() -> list[Doc]:
            found: list[Doc] = await cursor.to_list(None)
            return [d for d in found if terms & _stems(str(d["content"]))]

        return _Cursor(matching)

    def update_one(self, filter: Doc, update: Doc, upsert: bool = False, **kw: Any) -> Any:
        self._route(filter, upsert)
        return self._inner.update_one(filter, update, upsert=upsert, **kw)

    def find_one_and_update(self, filter: Doc, update: Doc, *args: Any, **kw: Any) -> Any:
        self._route(filter, bool(kw.get("upsert")))
        return self._inner.find_one_and_update(filter, update, *args, **kw)

    def _route(self, filter: Doc, upsert: bool) -> None:
        """mongos refuses an upsert whose filter does not pin the whole shard key."""
        key = self._atlas.shard_keys.get(self._inner.name)
        if not upsert or key is None:
            return
        self._atlas.upserts += 1
        if any(name not in filter or isinstance(filter[name], dict) for name in key):
            raise server_error(
                61,
                "ShardKeyNotFound",
                "Failed to target upsert by query :: could not extract exact shard key",
            )

    def aggregate(self, pipeline: list[Doc], session: Any = None) -> Any:
        stage = next(iter(pipeline[0]))
        if stage not in SEARCH_STAGES:
            return self._inner.aggregate(pipeline, session=session)
        self._atlas.pipelines.append(pipeline)
        if stage in self._atlas.errors:
            raise self._atlas.errors[stage]
        if self._atlas.flaky.get(stage):
            raise self._atlas.flaky[stage].pop(0)
        for vector_search in _vector_stages(pipeline):
            _check_vector_search(vector_search)
            self._check_dimension(vector_search)
        return _Cursor(lambda: self._answer(stage, pipeline))

    async def _answer(self, stage: str, pipeline: list[Doc]) -> list[Doc]:
        scripted = self._atlas.answers.get(stage, [])
        wanted = [doc_id for doc_id, _ in scripted]
        found = await self._inner.find({"_id": {"$in": wanted}}).to_list(None)
        by_id = {d["_id"]: d for d in found}
        projection = next((s["$project"] for s in reversed(pipeline) if "$project" in s), None)
        return [_project(by_id[i], s, projection) for i, s in scripted if i in by_id]

    def list_search_indexes(self) -> Any:
        """Each index turns READY (serving its latest definition) ``queryable_after_lists``
        listings after it was created or updated; until then a rebuilt one serves the old."""
        self._atlas.lists += 1

        async def listed() -> list[Doc]:
            if "$listSearchIndexes" in self._atlas.errors:
                raise self._atlas.errors["$listSearchIndexes"]
            for index in self._atlas.indexes:
                built_at = index.get("_built_at", self._atlas.queryable_after_lists)
                if self._atlas.lists > built_at and index.get("status") != "STALE":
                    index.update(status=READY, queryable=True)
                    index["_served"] = index.get("latestDefinition")
            return [
                {k: v for k, v in i.items() if not k.startswith("_")} for i in self._atlas.indexes
            ]

        return _Cursor(listed)

    async def create_search_index(self, model: SearchIndexModel) -> str:
        document = dict(model.document)
        spec = SearchIndexSpec("facts", document["name"], document.get("type", "search"))
        listing = _listing(spec, "PENDING", False)
        listing.update(latestDefinition=document["definition"], _built_at=self._built_at())
        self._atlas.indexes.append(listing)
        return str(document["name"])

    async def update_search_index(self, name: str, definition: Doc) -> None:
        """Atlas keeps serving the old definition while it builds the new one."""
        for index in self._atlas.indexes:
            if index["name"] == name:
                index.update(latestDefinition=definition, status="BUILDING")
                index["_built_at"] = self._built_at()

    def _built_at(self) -> int:
        return self._atlas.lists + self._atlas.queryable_after_lists

    def _check_dimension(self, spec: Doc) -> None:
        """What Atlas answers when the served vector index has another dimension."""
        index = next((i for i in self._atlas.indexes if i["name"] == spec["index"]), None)
        served = (index or {}).get("_served") or {}
        fields = [f for f in served.get("fields", []) if f.get("type") == "vector"]
        asked = len(spec["queryVector"])
        if fields and int(fields[0]["numDimensions"]) != asked:
            indexed = int(fields[0]["numDimensions"])
            raise server_error(
                8,
                "UnknownError",
                "PlanExecutor error during aggregation :: caused by :: vector field is indexed "
                f"with {indexed} dimensions but queried with {asked}",
            )


def _vector_stages(pipeline: list[Doc]) -> list[Doc]:
    """Every ``$vectorSearch`` spec of the pipeline."""
    return [stage["$vectorSearch"] for stage in pipeline if "$vectorSearch" in stage]


def _check_vector_search(spec: Doc) -> None:
    """The documented limits: numCandidates (or exact: true) up to 10,000, limit within it.

    The rule is Atlas's; the wording is mongot's style (the exact text was not found).
    """
    candidates, limit = spec.get("numCandidates"), int(spec["limit"])
    if candidates is None and spec.get("exact") is not True:
        raise server_error(8, "UnknownError", '"numCandidates" is required unless "exact": true')
    if candidates is not None and int(candidates) > 10_000:
        raise server_error(8, "UnknownError", '"numCandidates" must be less than or equal to 10000')
    if limit > (10_000 if candidates is None else int(candidates)):
        raise server_error(8, "UnknownError", '"limit" must be less than or equal to numCandidates')


def _project(document: Doc, score: float, projection: Doc | None) -> Doc:
    """A document as a ``$project`` stage leaves it: included fields, ``$meta`` as the score.

    Only what the store sends is understood: inclusions (``1``), the score's ``$meta``, and
    ``_id`` (kept unless excluded). Anything else fails the test rather than being guessed.
    """
    if projection is None:
        return dict(document)
    shaped: Doc = {"_id": document["_id"]} if projection.get("_id", 1) else {}
    for name, value in projection.items():
        if isinstance(value, dict) and set(value) == {"$meta"}:
            shaped[name] = score
        elif value == 1:
            if name in document:
                shaped[name] = document[name]
        elif not (name == "_id" and value == 0):
            raise AssertionError(f"the fake Atlas cannot project {name}: {value!r}")
    return shaped


class FakeAtlasDatabase:
    """A Motor-like database whose collections answer Atlas Search stages."""

    def __init__(self, atlas: Atlas) -> None:
        self._inner: Any = AsyncMongoMockClient()["fake_atlas"]
        self.atlas = atlas

    def __getitem__(self, name: str) -> FakeAtlasCollection:
        return FakeAtlasCollection(self._inner[name], self.atlas)

    @property
    def client(self) -> Any:
        return self._inner.client
