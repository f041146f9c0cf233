"""Issue 42, item 6: the router's and the rerank's decisions, each model against the rule.

    uv run python bench/decisions.py --engine real --model qwen0.5b
    uv run python bench/decisions.py --engine offline          # the rules alone

On `bench/data/decisions.json` (labelled before anything was measured on it):

- router: rag (the handbook answers it) or agent; the rule is `graph.routing.rule_route`,
  the model is asked as the router asks it (`ask_structured`, RouteDecision). A model
  answer nothing could be read from counts as the rule's decision (that is what the
  product does) and is also counted as a fallback.
- rerank: the first search's passages (`search_all`), judged by the rule (`judge_rule`)
  and by the model as the rag node asks it (JudgementSchema); right when the first ranked
  passage is the labelled section. Items whose section the search did not find are
  counted apart (neither can rank it first).

It prints, per decision: right answers of the rule, of the model (with the rule where the
model gave nothing), parsed answers, where the two agree, and "both" (the rule decides
when they disagree: as right as the rule, at the model's cost), and the seconds per call.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from langchain_core.messages import HumanMessage, SystemMessage  # noqa: E402

from bench import real_model_server as rms  # noqa: E402
from graph.retrieval import open_index  # noqa: E402
from graph.retrieval.index import DocumentIndex, Hit  # noqa: E402
from graph.retrieval.loop import JudgementSchema, judge_rule, search_all  # noqa: E402
from graph.routing import RouteDecision, rule_route  # noqa: E402
from graph.settings import load_settings  # noqa: E402
from graph.structured import ask_structured  # noqa: E402
from prompt import get_prompt  # noqa: E402

DATA = ROOT / "bench" / "data" / "decisions.json"


@dataclass
class Tally:
    """One decision's counts."""

    items: int = 0
    rule_right: int = 0
    model_right: int = 0
    """The model's answer, or the rule's where the model gave none (what the product does)."""
    parsed: int = 0
    model_alone_right: int = 0
    """Right among the parsed answers only."""
    agree: int = 0
    unjudgeable: int = 0
    seconds: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


def _section(hit: Hit) -> tuple[str, str]:
    return hit.source, hit.heading.split(" > ")[-1].strip()


def _right(hit: Hit | None, item: dict[str, Any]) -> bool:
    return hit is not None and _section(hit) == (item["source"], item["heading"])


def run(model: Any, index: DocumentIndex, data: dict[str, Any]) -> dict[str, Tally]:
    router, rerank = Tally(), Tally()
    for item in data["router"]:
        router.items += 1
        rule = rule_route(item["question"], index).route
        router.rule_right += rule == item["route"]
        decided = rule
        if model is not None:
            start = time.perf_counter()
            asked = ask_structured(
                model,
                RouteDecision,
                [SystemMessage(get_prompt("router.system")), HumanMessage(item["question"])],
                decision="router",
            )
            router.seconds.append(time.perf_counter() - start)
            if asked.value is not None:
                router.parsed += 1
                decided = asked.value.route
                router.model_alone_right += decided == item["route"]
        router.model_right += decided == item["route"]
        router.agree += decided == rule
        if decided != item["route"]:
            router.misses.append(
                f"{item['route']} <- model {decided}, rule {rule}: {item['question']}"
            )
    for item in data["rerank"]:
        passages = search_all(index, item["question"])
        if not any(_right(p, item) for p in passages):
            rerank.unjudgeable += 1
            continue
        rerank.items += 1
        rule_rank = judge_rule(index, item["question"], passages).ranked_indices
        rule_top = passages[rule_rank[0] - 1] if rule_rank else None
        rerank.rule_right += _right(rule_top, item)
        top = rule_top
        if model is not None:
            listing = "\n\n".join(
                f"[{i}] {p.source} > {p.heading}\n{p.text}" for i, p in enumerate(passages, 1)
            )
            start = time.perf_counter()
            asked = ask_structured(
                model,
                JudgementSchema,
                [
                    SystemMessage(get_prompt("rerank.system")),
                    HumanMessage(
                        get_prompt("rerank.user", question=item["question"], passages=listing)
                    ),
                ],
                decision="rerank",
            )
            rerank.seconds.append(time.perf_counter() - start)
            if asked.value is not None:
                valid = [i for i in asked.value.ranked_indices if 1 <= i <= len(passages)]
                rerank.parsed += 1
                if valid:
                    top = passages[valid[0] - 1]
                    rerank.model_alone_right += _right(top, item)
        rerank.model_right += _right(top, item)
        rerank.agree += (
            top is not None and rule_top is not None and _section(top) == _section(rule_top)
        )
        if not _right(top, item):
            got = " > ".join(_section(top)) if top else "nothing"
            rerank.misses.append(
                f"{item['source']} > {item['heading']} <- {got}: {item['question']}"
            )
    return {"router": router, "rerank": rerank}


def report(name: str, tallies: dict[str, Tally]) -> str:
    lines = [f"{name}:"]
    for decision, t in tallies.items():
        n = t.items or 1
        seconds = f"{statistics.median(t.seconds):.1f} s a call" if t.seconds else "no model call"
        lines.append(
            f"  {decision:<6} {t.items} items"
            + (f" (+{t.unjudgeable} whose section the search missed)" if t.unjudgeable else "")
            + f": rule {t.rule_right}/{t.items} ({t.rule_right / n:.2f}); model {t.model_right}/{t.items}"
            f" ({t.model_right / n:.2f}), parsed {t.parsed}/{t.items}, right when parsed "
            f"{t.model_alone_right}/{t.parsed or 0}; agree with the rule {t.agree}/{t.items}; "
            f"both (rule decides on disagreement) {t.rule_right}/{t.items}; {seconds}"
        )
        lines += [f"    miss: {m}" for m in t.misses[:12]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["offline", "real"], default="offline")
    parser.add_argument("--model", choices=sorted(rms.MODELS), default="qwen0.5b")
    args = parser.parse_args()
    data = json.loads(DATA.read_text("utf-8"))
    index = open_index(
        load_settings({"CHAT_PROVIDER": "offline", "INDEX_DIR": "/tmp/decisions-index"})
    )
    if args.engine == "offline":
        print(report("rules alone", run(None, index, data)))
        return
    gguf = rms.ensure_installed(args.model)
    if gguf is None:
        raise SystemExit(
            f"{args.model} is not installed: python bench/real_model_server.py --install"
        )
    from graph.providers import get_summarizer_model

    with rms.start_server(gguf, n_ctx=8192) as server:
        settings = load_settings(
            {
                "CHAT_PROVIDER": "openai",
                "OPENAI_BASE_URL": server.base_url,
                "CHAT_MODEL": server.model_id,
                "LLM_MAX_RETRIES": "0",
                "LLM_TEMPERATURE": "0",
                "LLM_SEED": "42",
                "LLM_TIMEOUT_S": "300",
            }
        )
        model = get_summarizer_model(settings)
        print(report(f"{rms.describe(args.model)}; temperature 0", run(model, index, data)))


if __name__ == "__main__":
    main()
