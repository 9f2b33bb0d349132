"""Provider adapters (OpenAI, Gemini) against local stand-ins, and the cross-cutting wrappers."""
