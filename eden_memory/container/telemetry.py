"""The telemetry the settings choose; OpenTelemetry is imported only when it is chosen."""

from __future__ import annotations

from eden_memory.application.telemetry import NO_TELEMETRY
from eden_memory.config import EdenMemoryConfig
from eden_memory.container.embedders import embedder_kind
from eden_memory.domain.model_choice import ModelRole
from eden_memory.ports.telemetry import Telemetry

# The GenAI conventions' names for the providers the container builds.
GENAI_PROVIDER: dict[str, str] = {
    "openai": "openai",
    "gemini": "gcp.gemini",
    "none": "unknown",
}  # LLM providers and embedder kinds alike


def telemetry(config: EdenMemoryConfig) -> Telemetry:
    """Off (a no-op, nothing imported), or ``OtelTelemetry`` naming each model's provider."""
    if config.telemetry == "off":
        return NO_TELEMETRY
    from eden_memory.adapters.telemetry.otel import OtelTelemetry

    models = config.memory.models
    providers = {
        getattr(models, role.value): GENAI_PROVIDER[config.provider_for(role)] for role in ModelRole
    }
    kind = embedder_kind(config)
    return OtelTelemetry(
        providers,
        chat_provider=GENAI_PROVIDER[config.llm_provider],
        embedding_provider=GENAI_PROVIDER.get(kind, kind),  # a local embedder: its kind
        capture_content=config.telemetry_capture_content,
    )
