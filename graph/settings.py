"""One settings object for the whole app, read from the environment.

Every field has a default that works on a fresh machine with no keys at all: with no
`OPENAI_API_KEY` the built-in offline engine answers, tools that need a key are not offered,
and state lives under `.state/` (git-ignored). Nothing is read at import time; call
`load_settings()` when a function needs configuration.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypeVar

from graph.budgets import Budgets

ProviderName = Literal["offline", "openai"]
_T = TypeVar("_T")

DEFAULT_MAX_TOKENS = {"answer": 1024, "summary": 768, "decision": 256}
"""Most tokens a model writes per call kind unless LLM_MAX_TOKENS says otherwise: enough
for any answer of a chat turn, a summary of three turns at rate 0.5, and a JSON decision;
without a limit a local server writes until its context is full."""

MIN_COMPRESSION_RATE = 0.1
MAX_COMPRESSION_RATE = 0.5
DEFAULT_COMPRESSION_RATE = 0.3


def _env(name: str, default: str = "", doc: str = "") -> Any:
    """Declare a field read from environment variable `name`."""
    return field(default=default, metadata={"env": name, "doc": doc})


@dataclass(frozen=True)
class Settings:
    """Configuration of the chat app; each field names the environment variable it reads."""

    provider: str = _env(
        "CHAT_PROVIDER",
        "auto",
        "auto (OpenAI when a key or base URL is set, else offline), offline, or openai.",
    )
    openai_api_key: str = _env("OPENAI_API_KEY", "", "Key for OpenAI or a compatible server.")
    openai_base_url: str = _env(
        "OPENAI_BASE_URL", "", "Any OpenAI-compatible server (Ollama, vLLM, llama.cpp server)."
    )
    chat_model: str = _env("CHAT_MODEL", "gpt-4o-mini", "Model that answers.")
    summary_model: str = _env(
        "SUMMARY_MODEL", "", "Cheaper model for summaries; empty means the chat model."
    )
    embedding_model: str = _env(
        "EMBEDDING_MODEL",
        "",
        "Embeddings for FAISS and hybrid retrieval. Unset: OpenAI's text-embedding-3-small "
        "with OpenAI; with OPENAI_BASE_URL none, and search is by keywords (the sidebar says "
        "so): a local server that also answers the chat would embed the documents in the "
        "turns' queue. Set it (to the chat model's own name, or an embedding model the server "
        "has) to embed there; the vectors are then built between turns, one request at a time.",
    )
    llm_timeout_s: str = _env("LLM_TIMEOUT_S", "60", "Seconds before a model call gives up.")
    llm_temperature: str = _env(
        "LLM_TEMPERATURE",
        "0.3",
        "Temperature of the answering model (0-2); summaries and decisions always use 0.",
    )
    llm_seed: str = _env(
        "LLM_SEED",
        "",
        "A fixed sampling seed sent with every model call (empty: none), for repeatable runs "
        "on servers that take one (llama.cpp, vLLM, OpenAI's best effort).",
    )
    llm_max_retries: str = _env(
        "LLM_MAX_RETRIES",
        "2",
        "Client retries on 429/5xx (never of a request the server says it does not support).",
    )
    llm_turn_timeout_s: str = _env(
        "LLM_TURN_TIMEOUT_S",
        "300",
        "Seconds a turn's model calls may take together, however steadily the server streams; "
        "past it the answer ends with LLM_TIMEOUT and the text so far is kept.",
    )
    llm_max_tokens: str = _env(
        "LLM_MAX_TOKENS",
        "",
        "Most tokens a model may write per call kind, e.g. 'answer=1024,summary=768,"
        "decision=256' (answer: the chat's answers and Continue; summary: summaries, "
        "digests, memory; decision: router, rerank, safeguard, entities; 0 = no limit). "
        "Unset kinds keep those defaults.",
    )
    llm_system_role: str = _env(
        "LLM_SYSTEM_ROLE",
        "auto",
        "system, user or auto: where the system prompt goes. user folds it into the first "
        "user message, for chat templates that drop the system role; auto does so when the "
        "server's /props reports a chat template without one (llama.cpp's server).",
    )
    db_path: str = _env(
        "CHAT_DB_PATH", ".state/chat.sqlite", "SQLite file for checkpoints and the archive."
    )
    database_url: str = _env(
        "DATABASE_URL",
        "",
        "postgresql://user@host/db: checkpoints and the archive in PostgreSQL (shared by many "
        "processes and machines) instead of the SQLite file CHAT_DB_PATH.",
    )
    checkpointer: str = _env(
        "CHECKPOINTER",
        "",
        "Where LangGraph's checkpoints live. Empty: in the database (SQLite, or PostgreSQL "
        "with DATABASE_URL). redis: seed 001's Redis checkpointer (langgraph-checkpoint-redis; "
        "a Redis with RedisJSON and RediSearch at CHECKPOINT_REDIS_URL); memory: in this "
        "process only, for ephemeral sessions (MEMORY_IDLE_S, MEMORY_MAX_THREADS). Either "
        "keeps the thread list and the archive in the database, and refuses a turn's "
        "versions (their rows move with the archive).",
    )
    checkpoint_redis_url: str = _env(
        "CHECKPOINT_REDIS_URL",
        "",
        "CHECKPOINTER=redis: the Redis (with RedisJSON and RediSearch) of the checkpoints; "
        "empty: REDIS_URL.",
    )
    memory_idle_s: str = _env(
        "MEMORY_IDLE_S",
        "3600",
        "CHECKPOINTER=memory: a thread unused this many seconds is deleted whole "
        "(checkpoints, archive, list entry) at the next sweep, after any turn.",
    )
    memory_max_threads: str = _env(
        "MEMORY_MAX_THREADS",
        "100",
        "CHECKPOINTER=memory: at most this many threads are kept; past it the least "
        "recently used are deleted whole.",
    )
    compression_rate: str = _env(
        "COMPRESSION_RATE", str(DEFAULT_COMPRESSION_RATE), "Default rate for new threads."
    )
    max_message_chars: str = _env(
        "MAX_MESSAGE_CHARS", "8000", "Longest user message accepted, in characters."
    )
    agent_mode: str = _env(
        "AGENT_MODE",
        "single",
        "single (one agent: the model with every tool) or supervisor (seed 004: intent and a "
        "plan of at most 3 steps, each step run by a specialist agent - documents, contract, "
        "web, code, data or general - and one aggregated answer; see graph/supervisor).",
    )
    max_tool_rounds: str = _env(
        "MAX_TOOL_ROUNDS", "5", "Model -> tool rounds allowed in one turn before the fallback."
    )
    answer_candidates: str = _env(
        "ANSWER_CANDIDATES",
        "1",
        "1 (off), 2 or 3: answers asked of the model at once for each answer step; the best "
        "by `graph.nodes.candidates.score` is kept and streamed (seed 001).",
    )
    timezone: str = _env("APP_TIMEZONE", "Asia/Seoul", "Default IANA zone of the time tool.")
    language: str = _env("APP_LANGUAGE", "ko", "Interface language: ko or en.")
    files_dir: str = _env("FILES_DIR", "data", "The only folder read_file may read.")
    docs_dir: str = _env("DOCS_DIR", "data/docs", "Documents indexed for retrieval.")
    index_dir: str = _env(
        "INDEX_DIR", "", "Where the document index is kept; empty means next to the DB."
    )
    openweather_api_key: str = _env("OPENWEATHER_API_KEY", "", "Enables get_weather.")
    openweather_base_url: str = _env(
        "OPENWEATHER_BASE_URL", "https://api.openweathermap.org", "OpenWeather endpoint."
    )
    tavily_api_key: str = _env("TAVILY_API_KEY", "", "Enables web_search.")
    tavily_base_url: str = _env("TAVILY_BASE_URL", "https://api.tavily.com", "Tavily endpoint.")
    wikipedia_api_url: str = _env(
        "WIKIPEDIA_API_URL",
        "https://{lang}.wikipedia.org/w/api.php",
        "Wikipedia API; {lang} is replaced by ko or en.",
    )
    tool_http_timeout_s: str = _env(
        "TOOL_HTTP_TIMEOUT_S", "10", "Seconds before a network tool gives up."
    )
    python_timeout_s: str = _env("PYTHON_TIMEOUT_S", "5", "Wall-clock limit of python_repl.")
    python_memory_mb: str = _env("PYTHON_MEMORY_MB", "256", "Address-space limit of python_repl.")
    python_max_output: str = _env(
        "PYTHON_MAX_OUTPUT", "10000", "Characters of python_repl output kept."
    )
    memory_strategy: str = _env(
        "MEMORY_STRATEGY",
        "three_turn",
        "Memory strategy of new threads: three_turn, sliding_window or recursive.",
    )
    short_term_redis_url: str = _env(
        "REDIS_URL",
        "",
        "Set: the recursive strategy also keeps each thread's short-term memory (the last "
        "5 turns), memory and entities in Redis under seed 003's keys "
        "chat:{tenant}:{session}:short|memory|entities, for SHORT_TERM_TTL_S after their last "
        "use (the service's job queue uses the same Redis). Empty: nothing outside the "
        "database.",
    )
    short_term_idle_s: str = _env(
        "SHORT_TERM_IDLE_S",
        "",
        "Batch cleanup of seed 003's short-term keys (python -m service.short_term_sweep, "
        "and the service every SHORT_TERM_SWEEP_S): threads idle longer than this are "
        "removed; empty: SHORT_TERM_TTL_S.",
    )
    short_term_ttl_s: str = _env(
        "SHORT_TERM_TTL_S",
        "86400",
        "Seconds a thread's short-term keys in Redis live after their last write or read "
        "(seed 003: 24 hours).",
    )
    context_budget_chars: str = _env(
        "CONTEXT_BUDGET_CHARS",
        "8000",
        "Characters of summaries the 3-turn strategy keeps in the context before the oldest are "
        "merged into digests (per thread in the sidebar). 8,000 keeps seed 002's table (16 "
        "summaries at turn 50) for turns of up to about 500 characters at rate 0.3 (the seed's "
        "own example: 1,500 characters per three turns).",
    )
    mask_pii: str = _env(
        "MASK_PII",
        "on",
        "on or off: mask phone numbers, e-mail addresses, resident registration and card "
        "numbers in everything sent to a model provider (the conversation keeps them).",
    )
    context_token_budgets: str = _env(
        "CONTEXT_TOKEN_BUDGETS",
        "",
        "Seed 003's token budget per context section, e.g. 'documents=1000,recent=2000' "
        "(system, memory, entities, recent, documents, question; 0 = no limit; the others "
        "keep their defaults 1500, 5000, 200, 0, 1500, 100). Over budget, a section loses "
        "its lowest-ranked items; tokens are estimated offline (see graph/budgets.py).",
    )
    safeguard_model: str = _env(
        "SAFEGUARD_MODEL",
        "off",
        "on or off: with a model configured, also ask it for each message's safeguard label "
        "(one more call a turn; seed 000's call table has none, so the rules alone decide by "
        "default).",
    )
    recall: str = _env(
        "RECALL",
        "on",
        "on or off: search the archived turns for each message and add the relevant ones "
        "to the context (default per thread; the sidebar switches it).",
    )
    recall_budget_chars: str = _env(
        "RECALL_BUDGET_CHARS",
        "2000",
        "Characters of earlier turns that recall may add to the context.",
    )
    retrieval_mode: str = _env(
        "RETRIEVAL_MODE",
        "hybrid",
        "keyword, faiss or hybrid: how documents are searched (seed 000's init_vector_store). "
        "faiss and hybrid use the embeddings server's vectors (EMBEDDING_MODEL); offline "
        "there are none and every mode is keyword search (BM25 with the office glossary). "
        "When the server's embeddings fail, keyword search answers and the sidebar says why.",
    )
    retrieval_loop: str = _env(
        "RETRIEVAL_LOOP",
        "on",
        "on: seed 003's loop (search, rerank and judge, search again or expand a section, at "
        "most 3 calls, honest fallbacks); off: one search of 3 passages.",
    )
    search_all_mix_raw: str = _env(
        "SEARCH_ALL_MIX",
        "3,7",
        "FAQ and guide passages a search_all call returns, as 'faq,guide' (seed 003: 3 FAQ "
        "+ 7 guide); each 0-20, together at least 1.",
    )
    checkpoint_keep_turns: str = _env(
        "CHECKPOINT_KEEP_TURNS",
        "20",
        "Turns whose checkpoints (one after every node) are kept for time travel and forks; "
        "0 keeps all. Older ones are pruned; summaries and the archive are never touched.",
    )
    router_decision: str = _env(
        "ROUTER_DECISION",
        "auto",
        "How the router (and the supervisor's plan) decides, with a model configured: rule "
        "(no call), model (a structured call; the rule where nothing can be read) or both (the "
        "model is asked too, the rule decides where they disagree, the disagreement recorded). "
        "auto: rule with a compatible server (OPENAI_BASE_URL), model with OpenAI's own API. "
        "bench/decisions.py measured local models below the rule (docs/model-servers.md).",
    )
    rerank_decision: str = _env(
        "RERANK_DECISION",
        "auto",
        "How the retrieval loop's rerank-and-sufficiency judgement is made, with a model "
        "configured: rule, model or both, as ROUTER_DECISION; auto: rule with a compatible "
        "server, model with OpenAI's own API.",
    )
    tool_decision: str = _env(
        "TOOL_DECISION",
        "auto",
        "Who decides that a message calls a tool, with a model configured: model (the model, "
        "from the tools it is given), rule (the offline engine's rule for plain requests: "
        "arithmetic, the clock, a file, code, weather, Wikipedia, the web; the model gets no "
        "tools) or both (the rule's call where it finds a plain request, the model's own "
        "calls elsewhere). auto: both with a compatible server, model with OpenAI's own API "
        "(bench/real_model.py measured small local models answering arithmetic from memory).",
    )
    prompt_layout_raw: str = _env(
        "PROMPT_LAYOUT",
        "stable_first",
        "stable_first: a provider's model gets the fixed instructions first (and the tool "
        "descriptions its chat template puts after them), then the memory, the raw turns, "
        "and this turn's recalled turns and documents just before the message, so a server "
        "with a prefix cache (llama.cpp) evaluates only what changed; one_system: one system "
        "message with everything, as before (bench/real_model.py prints both).",
    )
    embedding_batch: str = _env(
        "EMBEDDING_BATCH",
        "auto",
        "Document sections sent to the embeddings server in one request (1 or more; auto: 16 "
        "to OpenAI, 1 to a compatible server, so a turn waits behind one section at most). With a "
        "server, vectors are built batch by batch in the background (keyword search answers "
        "meanwhile) and kept by content under INDEX_DIR, so a restart or another process "
        "embeds only what is not there yet.",
    )
    embedding_timeout_s: str = _env(
        "EMBEDDING_TIMEOUT_S",
        "30",
        "Seconds one request to the embeddings server (a batch of sections, or a query) may "
        "take. A failed batch is asked again up to LLM_MAX_RETRIES times, never one the "
        "server says it does not support.",
    )
    embedding_wait_s: str = _env(
        "EMBEDDING_WAIT_S",
        "1",
        "Seconds the page or search that starts building a server's vectors waits for them "
        "before keyword search answers meanwhile (0: never waits); vectors already kept are "
        "used at once.",
    )

    # Typed views: the raw fields stay strings so that every value round-trips through
    # the environment unchanged; these parse them once, with a clear error.
    def _float(self, name: str) -> float:
        raw = getattr(self, name)
        try:
            return float(raw)
        except ValueError as exc:
            env = _field_env(name)
            raise ValueError(f"{env} must be a number, got {raw!r}") from exc

    def _int(self, name: str) -> int:
        return int(self._float(name))

    @property
    def resolved_provider(self) -> ProviderName:
        """The provider that answers: `auto` picks OpenAI only when it is configured."""
        if self.provider == "offline":
            return "offline"
        if self.provider == "openai":
            return "openai"
        return "openai" if (self.openai_api_key or self.openai_base_url) else "offline"

    @property
    def answer_temperature(self) -> float:
        """LLM_TEMPERATURE checked (0-2)."""
        value = self._float("llm_temperature")
        if not 0.0 <= value <= 2.0:
            raise ValueError(f"LLM_TEMPERATURE must be between 0 and 2, got {value}")
        return value

    @property
    def seed(self) -> int | None:
        """LLM_SEED as a whole number, or None when unset."""
        raw = self.llm_seed.strip()
        if not raw:
            return None
        try:
            return int(raw)
        except ValueError as exc:
            raise ValueError(f"LLM_SEED must be a whole number, got {raw!r}") from exc

    @property
    def prompt_layout(self) -> Literal["stable_first", "one_system"]:
        """PROMPT_LAYOUT: how a provider's model gets the context (stable_first, one_system)."""
        layout = self.prompt_layout_raw.strip().lower()
        if layout == "stable_first":
            return "stable_first"
        if layout == "one_system":
            return "one_system"
        raise ValueError(f"PROMPT_LAYOUT must be stable_first or one_system, got {layout!r}")

    @property
    def embedding_model_name(self) -> str:
        """The embedding model to use, or '' for none (EMBEDDING_MODEL's default above)."""
        named = self.embedding_model.strip()
        if named or self.resolved_provider != "openai":
            return named
        return "" if self.openai_base_url.strip() else "text-embedding-3-small"

    @property
    def default_rate(self) -> float:
        """Compression rate for new threads, clamped into the allowed range."""
        return clamp_rate(self._float("compression_rate"))

    @property
    def message_limit(self) -> int:
        """Longest accepted user message in characters."""
        return self._int("max_message_chars")

    @property
    def tool_round_limit(self) -> int:
        """Maximum model -> tool rounds in one turn."""
        return self._int("max_tool_rounds")

    @property
    def supervised(self) -> bool:
        """AGENT_MODE: whether the supervisor runs the turn (ValueError for an unknown mode)."""
        mode = self.agent_mode.strip().lower() or "single"
        if mode not in ("single", "supervisor"):
            raise ValueError(f"AGENT_MODE must be single or supervisor, got {self.agent_mode!r}")
        return mode == "supervisor"

    @property
    def candidate_count(self) -> int:
        """ANSWER_CANDIDATES, checked to be 1, 2 or 3."""
        value = self._int("answer_candidates")
        if value not in (1, 2, 3):
            raise ValueError(f"ANSWER_CANDIDATES must be 1, 2 or 3, got {value}")
        return value

    @property
    def timeout_s(self) -> float:
        """Timeout of one model call in seconds."""
        return self._float("llm_timeout_s")

    @property
    def max_retries(self) -> int:
        """Client-side retries of one model call."""
        return self._int("llm_max_retries")

    @property
    def turn_timeout_s(self) -> float:
        """LLM_TURN_TIMEOUT_S: seconds a turn's model calls may take together."""
        value = self._float("llm_turn_timeout_s")
        if value <= 0:
            raise ValueError(f"LLM_TURN_TIMEOUT_S must be above 0, got {value}")
        return value

    @property
    def max_tokens(self) -> dict[str, int]:
        """LLM_MAX_TOKENS parsed: call kind -> most tokens (0 = no limit)."""
        limits = dict(DEFAULT_MAX_TOKENS)
        for entry in filter(None, (e.strip() for e in self.llm_max_tokens.split(","))):
            kind, _, raw = entry.partition("=")
            kind = kind.strip()
            if kind not in limits or not raw.strip().isdigit():
                raise ValueError(
                    f"LLM_MAX_TOKENS takes 'kind=count' entries for {', '.join(limits)}, "
                    f"got {entry!r}"
                )
            limits[kind] = int(raw)
        return limits

    @property
    def system_role(self) -> Literal["system", "user", "auto"]:
        """LLM_SYSTEM_ROLE: system, user (folded into the first user message) or auto."""
        value = self.llm_system_role.strip().lower() or "auto"
        if value == "system":
            return "system"
        if value == "user":
            return "user"
        if value == "auto":
            return "auto"
        raise ValueError(f"LLM_SYSTEM_ROLE must be system, user or auto, got {value!r}")

    @property
    def default_strategy(self) -> str:
        """Memory strategy of new threads; an unknown name falls back to three_turn."""
        from graph.memory import DEFAULT_STRATEGY, STRATEGIES

        name = self.memory_strategy.strip()
        return name if name in STRATEGIES else DEFAULT_STRATEGY

    @property
    def short_term_idle(self) -> int:
        """SHORT_TERM_IDLE_S: idle seconds after which a sweep removes a thread's keys."""
        value = self.short_term_idle_s.strip()
        return int(float(value)) if value else self.short_term_ttl

    @property
    def short_term_ttl(self) -> int:
        """SHORT_TERM_TTL_S as a whole number of seconds, at least 1."""
        value = self._int("short_term_ttl_s")
        if value < 1:
            raise ValueError(f"SHORT_TERM_TTL_S must be 1 or more, got {value}")
        return value

    @property
    def summary_budget(self) -> int:
        """Characters of summaries kept in the context before older ones are merged."""
        return clamp_budget(self._int("context_budget_chars"))

    @property
    def masks_pii(self) -> bool:
        """Whether PII is masked before text leaves the machine (MASK_PII=off turns it off)."""
        return self.mask_pii.strip().lower() not in ("off", "0", "false", "no")

    @property
    def token_budgets(self) -> Budgets:
        """CONTEXT_TOKEN_BUDGETS parsed (ValueError names a bad entry)."""
        return Budgets.parse(self.context_token_budgets)

    def _decision(self, name: str) -> Literal["rule", "model", "both"]:
        raw = str(getattr(self, name)).strip().lower()
        env = _field_env(name)
        if raw in ("", "auto"):
            # measured: small local models decide worse than the rules (bench/decisions.py)
            return "rule" if self.openai_base_url.strip() else "model"
        if raw == "rule":
            return "rule"
        if raw == "model":
            return "model"
        if raw == "both":
            return "both"
        raise ValueError(f"{env} must be auto, rule, model or both, got {raw!r}")

    @property
    def tool_mode(self) -> Literal["rule", "model", "both"]:
        """TOOL_DECISION resolved (auto: both with a compatible server, else model)."""
        raw = self.tool_decision.strip().lower()
        if raw in ("", "auto"):
            return "both" if self.openai_base_url.strip() else "model"
        return self._decision("tool_decision")

    @property
    def router_mode(self) -> Literal["rule", "model", "both"]:
        """ROUTER_DECISION resolved (auto: rule with a compatible server, else model)."""
        return self._decision("router_decision")

    @property
    def rerank_mode(self) -> Literal["rule", "model", "both"]:
        """RERANK_DECISION resolved (auto: rule with a compatible server, else model)."""
        return self._decision("rerank_decision")

    @property
    def safeguard_asks_model(self) -> bool:
        """Whether the safeguard asks the model too (SAFEGUARD_MODEL=on).

        ValueError for a value that is neither on nor off.
        """
        value = self.safeguard_model.strip().lower()
        if value not in ("on", "off", "1", "0", "true", "false", "yes", "no", ""):
            raise ValueError(f"SAFEGUARD_MODEL must be on or off, got {self.safeguard_model!r}")
        return value in ("on", "1", "true", "yes")

    @property
    def recall_enabled(self) -> bool:
        """Whether new threads recall earlier turns (RECALL=off turns it off)."""
        return self.recall.strip().lower() not in ("off", "0", "false", "no")

    @property
    def recall_budget(self) -> int:
        """Characters of recalled turns allowed in one context."""
        return max(0, self._int("recall_budget_chars"))

    @property
    def loop_retrieval(self) -> bool:
        """RETRIEVAL_LOOP: seed 003's loop (on) or a single search (off)."""
        return self.retrieval_loop.strip().lower() not in ("off", "0", "false", "no")

    @property
    def search_mode(self) -> Literal["keyword", "faiss", "hybrid"]:
        """RETRIEVAL_MODE: keyword (BM25), faiss (vectors) or hybrid (both, fused by rank)."""
        mode = self.retrieval_mode.strip().lower()
        if mode == "keyword":
            return "keyword"
        if mode == "faiss":
            return "faiss"
        if mode == "hybrid":
            return "hybrid"
        raise ValueError(f"RETRIEVAL_MODE must be keyword, faiss or hybrid, got {mode!r}")

    @property
    def search_all_mix(self) -> tuple[int, int]:
        """SEARCH_ALL_MIX: (FAQ, guide) passages in a search_all result."""
        raw = self.search_all_mix_raw
        parts = [p.strip() for p in raw.split(",")]
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            faq, guide = int(parts[0]), int(parts[1])
            if faq <= 20 and guide <= 20 and faq + guide >= 1:
                return faq, guide
        raise ValueError(
            "SEARCH_ALL_MIX must be two counts 'faq,guide', each 0-20 and together at least "
            f"1 (seed 003: 3,7), got {raw!r}"
        )

    @property
    def keep_turns(self) -> int:
        """CHECKPOINT_KEEP_TURNS: turns of checkpoint history kept (0 = all)."""
        value = self._int("checkpoint_keep_turns")
        if value < 0:
            raise ValueError(f"CHECKPOINT_KEEP_TURNS must be 0 or more, got {value}")
        return value

    @property
    def checkpointer_kind(self) -> str:
        """CHECKPOINTER: database (the default), redis or memory; ValueError for others."""
        kind = self.checkpointer.strip().lower() or "database"
        if kind in ("sqlite", "postgres", "postgresql"):
            kind = "database"
        if kind not in ("database", "redis", "memory"):
            raise ValueError(f"CHECKPOINTER must be empty, redis or memory, got {kind!r}")
        if kind == "redis" and not self.checkpoint_redis.strip():
            raise ValueError("CHECKPOINTER=redis needs CHECKPOINT_REDIS_URL or REDIS_URL")
        return kind

    @property
    def checkpoint_redis(self) -> str:
        """The Redis URL of CHECKPOINTER=redis: CHECKPOINT_REDIS_URL, else REDIS_URL."""
        return self.checkpoint_redis_url.strip() or self.short_term_redis_url.strip()

    @property
    def memory_limits(self) -> tuple[float, int]:
        """(MEMORY_IDLE_S, MEMORY_MAX_THREADS) of CHECKPOINTER=memory."""
        idle, most = self._float("memory_idle_s"), self._int("memory_max_threads")
        if idle <= 0 or most < 1:
            raise ValueError("MEMORY_IDLE_S must be above 0 and MEMORY_MAX_THREADS at least 1")
        return idle, most

    @property
    def database(self) -> str:
        """Where the conversation is kept: DATABASE_URL if set, else the SQLite file."""
        return self.database_url.strip() or self.db_path

    @property
    def state_dir(self) -> Path:
        """Folder of the database; indexes default to living beside it."""
        return Path(self.db_path).expanduser().parent

    @property
    def index_path(self) -> Path:
        """Folder of the document index."""
        return Path(self.index_dir) if self.index_dir else self.state_dir / "index"

    def with_overrides(self, **changes: str) -> Settings:
        """Return a copy with some fields replaced (values as strings, like the environment)."""
        return replace(self, **changes)


def _field_env(name: str) -> str:
    for f in fields(Settings):
        if f.name == name:
            return str(f.metadata["env"])
    return name


MIN_SUMMARY_BUDGET = 100
MAX_SUMMARY_BUDGET = 50_000


def clamp_budget(chars: int) -> int:
    """Clamp a summary budget into [100, 50,000] characters."""
    return min(MAX_SUMMARY_BUDGET, max(MIN_SUMMARY_BUDGET, int(chars)))


def validate_budget(chars: int) -> int:
    """Return `chars` if it is a budget in [100, 50,000], else raise ValueError."""
    value = int(chars)
    if not MIN_SUMMARY_BUDGET <= value <= MAX_SUMMARY_BUDGET:
        raise ValueError(
            f"the summary budget must be between {MIN_SUMMARY_BUDGET:,} and "
            f"{MAX_SUMMARY_BUDGET:,} characters, got {value:,}"
        )
    return value


def clamp_rate(rate: float) -> float:
    """Clamp a compression rate into [0.1, 0.5]."""
    return min(MAX_COMPRESSION_RATE, max(MIN_COMPRESSION_RATE, float(rate)))


def validate_rate(rate: float) -> float:
    """Return `rate` if it lies in [0.1, 0.5], else raise ValueError with a clear message."""
    value = float(rate)
    if not MIN_COMPRESSION_RATE - 1e-9 <= value <= MAX_COMPRESSION_RATE + 1e-9:
        raise ValueError(
            f"compression rate must be between {MIN_COMPRESSION_RATE} and "
            f"{MAX_COMPRESSION_RATE}, got {value}"
        )
    return round(value, 4)


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read settings from `env` (default: `os.environ`); unset variables keep their defaults."""
    return from_env(Settings, env)


def from_env(cls: type[_T], env: Mapping[str, str] | None = None) -> _T:
    """A settings dataclass whose fields were declared with `env_field`, read from `env`."""
    source = os.environ if env is None else env
    values = {f.name: source[f.metadata["env"]] for f in fields(cls) if f.metadata["env"] in source}  # type: ignore[arg-type]
    return cls(**values)


env_field = _env
"""Declare a settings field read from an environment variable (for other packages)."""


def describe_settings() -> list[tuple[str, str, str]]:
    """Rows of (environment variable, default, meaning) for docs and the UI."""
    return [
        (str(f.metadata["env"]), str(f.default), str(f.metadata["doc"])) for f in fields(Settings)
    ]
