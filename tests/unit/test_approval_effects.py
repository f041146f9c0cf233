"""Issue 43, item 1: approval by what a tool does first, the kind of wording second, and a
model's structured decision besides (either can ask, neither can waive)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.tools import StructuredTool, tool

from bench import approval_wordings
from graph.approval import Category, ask_for, category_of, classify_call
from graph.session import TurnEvents, TurnRequest, new_thread, open_app, run_request
from graph.settings import load_settings
from graph.supervisor.plan import PlanDecision, PlannedStep, bounded
from graph.tools.effects import EFFECT_KEY, EFFECTS, Effect, effect_of
from tests.fakes.chat import ScriptedModel, tool_calls


class TextJsonModel(ScriptedModel):
    """A model with no structured-output mode: its decisions are JSON in its text."""

    def with_structured_output(self, *args: object, **kwargs: object):  # type: ignore[override]
        raise NotImplementedError("no structured output")


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ("pay John 50 dollars", Category.PAYMENT),
        ("transfer 500000 won to Kim", Category.PAYMENT),
        ("결제 부탁해요", Category.PAYMENT),
        ("송금 부탁드립니다", Category.PAYMENT),
        ("please sign the NDA", Category.CONTRACT),
        ("e-sign the document", Category.CONTRACT),
    ],
)
def test_the_wordings_the_issue_names_ask(message: str, category: Category) -> None:
    """Issue 43's examples: none of them got a category before (web_search ran unasked)."""
    assert category_of("web_search", {"query": "x"}, message) is category
    assert category_of(None, {"question": message}, message) is category  # a supervisor step


@pytest.mark.parametrize(
    "query",
    ["9001011234567 조회", "pw: tiger-lily", "minji dot lee at example dot com"],
)
def test_the_sensitive_arguments_the_issue_names_ask(query: str) -> None:
    assert category_of("web_search", {"query": query}, "찾아 줘") is Category.SENSITIVE


def test_questions_about_payments_and_reads_do_not_ask() -> None:
    for message in (
        "How do I pay my taxes online?",
        "송금하는 방법 알려 줘",
        "Summarize the lease",
    ):
        assert category_of("web_search", {"query": message}, message) is None


def test_the_effect_decides_first() -> None:
    # a tool that pays asks as a payment whatever its words; one that reads never asks
    assert classify_call("x", {"memo": "hi"}, "hello", effect=Effect.PAYMENT) is not None
    assert category_of("read_file", {"path": "a.txt"}, "결제해 줘") is None
    # the built-in tools declare their effects; an undeclared tool is outbound
    assert effect_of("calculator") is Effect.COMPUTE and effect_of("python_repl") is Effect.CODE
    assert effect_of("send_form") is Effect.OUTBOUND
    assert effect_of("calculator", None, frozenset({"calculator"})) is Effect.CODE
    assert effect_of("x", {EFFECT_KEY: "contract"}) is Effect.CONTRACT
    assert effect_of("x", {EFFECT_KEY: "teleport"}) is Effect.OUTBOUND  # unknown: ask
    asked = ask_for(Effect.CONTRACT, {"note": "thanks"}, "좋아요")
    assert asked is not None and asked.category is Category.CONTRACT
    assert ask_for(Effect.READ, {"path": "a"}, "pay the bill", untrusted=["file a"]) is None
    code = ask_for(Effect.CODE, {"code": "print(1)"}, "실행", untrusted=["file a, turn 1"])
    assert code is not None and code.category is Category.CODE and code.sources


def test_every_built_in_tool_declares_its_effect() -> None:
    from graph.tools import TOOL_NAMES, build_tools

    assert set(TOOL_NAMES) <= set(EFFECTS)
    for made in build_tools(load_settings({})):
        assert made.metadata == {EFFECT_KEY: EFFECTS[made.name]}


def test_the_models_category_asks_and_the_rules_cannot_be_waived() -> None:
    plain = {"query": "flowers"}
    asked = ask_for(Effect.OUTBOUND, plain, "그거 해 줘", model="payment")
    assert asked is not None and asked.category is Category.PAYMENT
    assert asked.why == "the model's decision"
    # the model saying "none" (or anything that is no category) waives nothing
    rules = ask_for(Effect.OUTBOUND, plain, "Wire 300 dollars to Ann", model="none")
    assert rules is not None and rules.category is Category.PAYMENT
    assert ask_for(Effect.OUTBOUND, plain, "그거 해 줘", model="general") is None


def test_a_models_plan_category_reaches_its_acting_steps() -> None:
    plan = PlanDecision(
        goal="g",
        parts=["p"],
        category="payment",
        steps=[
            PlannedStep(agent="web", question="find the shop's page"),
            PlannedStep(agent="documents", question="what does the guide say"),
        ],
    )
    steps = bounded(plan, "그 가게에 그거 해 줘", by_model=True)["steps"]
    assert [s["category"] for s in steps] == ["payment", "general"]


def test_the_safeguards_model_decision_makes_a_call_ask(tmp_path: Path) -> None:
    """Offline rules see no act in the words; the safeguard's model does, and the call of
    an outbound tool waits in its category (nothing reached the tool)."""
    ran: list[str] = []

    @tool
    def web_search(query: str) -> str:
        """Search the web."""
        ran.append(query)
        return "결과"

    verdict = json.dumps({"label": "PASS", "reason": "", "action": "payment"})
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "c.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    app = open_app(
        settings,
        model=ScriptedModel([tool_calls(("web_search", {"query": "꽃집 주문 페이지"})), "끝"]),
        safeguard_model=TextJsonModel(default=verdict),
        tools=[web_search],
        index=None,
    )
    thread = new_thread(app)
    out = run_request(
        app,
        TurnRequest(thread, message="엄마 생신 꽃 그거 처리해 줘"),
        TurnEvents(thread, lambda e: None),
    )
    assert out.pending is not None and out.pending["category"] == "payment"
    assert ran == []


def test_a_tool_declared_as_a_payment_always_asks(tmp_path: Path) -> None:
    ran: list[str] = []

    def pay_invoice(invoice: str) -> str:
        """Pay an invoice."""
        ran.append(invoice)
        return "paid"

    payer = StructuredTool.from_function(
        pay_invoice, name="pay_invoice", metadata={EFFECT_KEY: Effect.PAYMENT}
    )
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "c.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    app = open_app(
        settings,
        model=ScriptedModel([tool_calls(("pay_invoice", {"invoice": "A-7"})), "done"]),
        tools=[payer],
        index=None,
    )
    thread = new_thread(app)
    out = run_request(
        app, TurnRequest(thread, message="hello there"), TurnEvents(thread, lambda e: None)
    )
    assert out.pending is not None and out.pending["category"] == "payment" and ran == []


@pytest.mark.parametrize(
    ("name", "least", "most"),
    [("payment", 0.95, 1.0), ("contract", 0.95, 1.0), ("sensitive", 1.0, 1.0), ("benign", 0, 0.05)],
)
def test_the_wording_sets_meet_the_targets(name: str, least: float, most: float) -> None:
    """The sets of tests/data/approval_wordings (written before the rules changed)."""
    _, n, asks, right, _ = approval_wordings.measure(name, misses=False)
    assert n >= 30 and least <= asks <= most
    assert right >= least if name != "benign" else right == 1.0
