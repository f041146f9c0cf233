"""Model providers: OpenAI (or any OpenAI-compatible server) and the offline engine.

`describe_engine` is the one function the UI asks what is answering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from langchain_core.language_models import BaseChatModel

from graph.offline import OfflineChatModel
from graph.settings import Settings
from graph.summarizer import ExtractiveSummarizer, LLMSummarizer, Summarizer

_NO_KEY = "not-needed"
"""Compatible servers such as Ollama accept any key; the client insists on one."""


@dataclass(frozen=True)
class EngineInfo:
    """What answers, for the sidebar."""

    kind: str
    """offline, openai or compatible."""
    model: str
    """Chat model name (or the offline engine's name)."""
    summary_model: str
    """Model or method that writes summaries."""
    base_url: str
    """Server URL for compatible servers, else ''."""


def describe_engine(settings: Settings) -> EngineInfo:
    """Which engine answers under `settings`."""
    if settings.resolved_provider == "offline":
        return EngineInfo("offline", "offline-engine", ExtractiveSummarizer.name, "")
    kind = "compatible" if settings.openai_base_url else "openai"
    return EngineInfo(
        kind,
        settings.chat_model,
        settings.summary_model or settings.chat_model,
        settings.openai_base_url,
    )


CallKind = Literal["answer", "summary", "decision"]
"""What a model call is for; each kind has its own token limit (LLM_MAX_TOKENS)."""


def _openai(
    settings: Settings, model: str, temperature: float, kind: CallKind = "answer"
) -> BaseChatModel:
    import httpx2
    from langchain_openai import ChatOpenAI

    from graph.compat import CompatTransport

    base_url = settings.openai_base_url or "https://api.openai.com/v1"
    transport = CompatTransport(
        base_url,
        system_role=settings.system_role if settings.openai_base_url else "system",
        compatible=bool(settings.openai_base_url),
    )
    limit = settings.max_tokens[kind]
    return ChatOpenAI(
        model=model,
        api_key=settings.openai_api_key or _NO_KEY,  # type: ignore[arg-type]
        base_url=settings.openai_base_url or None,
        timeout=settings.timeout_s,
        max_retries=settings.max_retries,
        temperature=temperature,
        streaming=True,
        stream_usage=True,
        max_tokens=limit or None,  # type: ignore[call-arg]
        seed=settings.seed,
        http_client=httpx2.Client(transport=transport, timeout=settings.timeout_s),
    )


def get_chat_model(settings: Settings) -> BaseChatModel:
    """The answering model: ChatOpenAI when configured, else the offline engine."""
    if settings.resolved_provider == "offline":
        return OfflineChatModel()
    return _openai(settings, settings.chat_model, temperature=settings.answer_temperature)


def get_summarizer_model(settings: Settings) -> BaseChatModel:
    """The cheaper model for summaries and routing (the chat model if none is set)."""
    return _openai(
        settings, settings.summary_model or settings.chat_model, temperature=0.0, kind="decision"
    )


def get_summarizer(settings: Settings) -> Summarizer:
    """The summarizer: extractive offline, else the (cheaper) summary model."""
    if settings.resolved_provider == "offline":
        return ExtractiveSummarizer()
    model = settings.summary_model or settings.chat_model
    return LLMSummarizer(
        mask_pii=settings.masks_pii,
        model=_openai(settings, model, temperature=0.0, kind="summary"),
        name=model,
    )
