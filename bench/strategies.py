"""Issue 6 benchmark: one 300-turn conversation under every memory strategy.

    uv run python bench/strategies.py [--turns 300]

For each strategy it prints the context characters at turns 30, 100 and 300 and whether the
context is flat once the summary budget is reached (target: the median over turns 290-300
within 1.25x of the median over turns 140-150; seed 002's own table grows until the budget,
so turn 30 is no longer the reference), the summarizer calls spent (summaries + merges; each is one
model request with an API key, and none with the offline extractive summarizer), and the
retention of facts planted in the first 30 turns: the share of them whose value still
appears in the context of the last model call. For the default strategy it also prints the
core issue's targets (DB bytes / transcript bytes <= 3x; graph ms/turn at the end within
1.5x of the start).

The planted facts were written once, before the first measurement, as a user would say
them; they are not adjusted to what the summarizer keeps.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import describe_timing, interleaved  # noqa: E402
from bench.transcripts import make_transcript  # noqa: E402
from graph.memory import STRATEGIES  # noqa: E402
from graph.replay import compare, replay  # noqa: E402

# (turn, user message, assistant reply, the value that must survive)
PLANTED: list[tuple[int, str, str, str]] = [
    (
        2,
        "참고로 제 사번은 HS-20417이에요. 결재 올릴 때 써 주세요.",
        "네, 사번 HS-20417로 결재에 쓰겠습니다.",
        "HS-20417",
    ),
    (
        4,
        "우리 팀 워크숍은 내년 3월 14일 강릉에서 해요.",
        "3월 14일 강릉 워크숍 일정으로 알고 있겠습니다.",
        "강릉",
    ),
    (
        7,
        "새 프로젝트 코드명은 은하수로 정했어요.",
        "프로젝트 코드명 은하수, 기억해 두겠습니다.",
        "은하수",
    ),
    (9, "거래처 담당자는 오세훈 과장님이에요.", "거래처 담당자는 오세훈 과장님이군요.", "오세훈"),
    (
        12,
        "제 법인카드 한도는 월 250만원입니다.",
        "법인카드 월 한도 250만원으로 확인했습니다.",
        "250만원",
    ),
    (
        15,
        "서버 정기 점검은 매주 목요일 새벽 2시에 합니다.",
        "매주 목요일 새벽 2시 정기 점검이군요.",
        "목요일",
    ),
    (
        18,
        "제 노트북 자산번호는 NB-7731이에요.",
        "노트북 자산번호 NB-7731을 적어 두었습니다.",
        "NB-7731",
    ),
    (22, "올해 매출 목표는 48억원이에요.", "올해 매출 목표 48억원, 알겠습니다.", "48억"),
    (
        25,
        "신입 멘토는 한가람 선임으로 배정됐어요.",
        "신입 멘토로 한가람 선임이 배정되었군요.",
        "한가람",
    ),
    (
        28,
        "고객사 계약 만료일은 2027-06-30입니다.",
        "계약 만료일 2027-06-30을 기억하겠습니다.",
        "2027-06-30",
    ),
]


def planted_transcript(turns: int) -> list[dict[str, str]]:
    """The benchmark transcript with the facts put into their turns."""
    out = make_transcript(turns)["turns"]
    for turn, user, assistant, _ in PLANTED:
        if turn <= turns:
            out[turn - 1] = {"user": user, "assistant": assistant}
    return out


def retention(report: dict[str, object]) -> tuple[int, int]:
    """(facts whose value is in the last context, facts planted)."""
    context = "\n".join(str(m["content"]) for m in report["last_context"])  # type: ignore[attr-defined]
    facts = [value for turn, _, _, value in PLANTED if turn <= int(report["turns"])]  # type: ignore[call-overload]
    return sum(1 for value in facts if value in context), len(facts)


def _median(sizes: list[int], first: int, last: int) -> float:
    """Median of turns first..last (1-based, inclusive), or of the last turns if shorter."""
    window = sizes[first - 1 : last] or sizes[-(last - first + 1) :]
    return statistics.median(window)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--rate", type=float, default=0.3)
    parser.add_argument("--repeats", type=int, default=3, help="replays of the default, timed")
    args = parser.parse_args()
    turns = planted_transcript(args.turns)
    n = len(turns)
    reports = {}
    timed = []
    with tempfile.TemporaryDirectory() as tmp:
        for strategy in STRATEGIES:
            db = Path(tmp) / f"{strategy}.sqlite"
            reports[strategy] = replay(turns, args.rate, db, strategy, CHAT_PROVIDER="offline")
        for run in range(1, args.repeats):  # more replays of the default, for its timing
            db = Path(tmp) / f"timing-{run}.sqlite"
            timed.append(replay(turns, args.rate, db, "three_turn", CHAT_PROVIDER="offline"))
    marks = [m for m in (30, 100, 300) if m <= n] or [n]
    print(compare(reports, marks))
    print()
    for strategy, report in reports.items():
        sizes = [t["context_chars"] for t in report["per_turn"]]
        kept, planted = retention(report)
        middle, end = _median(sizes, 140, 150), _median(sizes, 290, 300)
        print(
            f"{strategy:>15}: median context turns 140-150 = {middle:,.0f}, 290-300 = {end:,.0f} "
            f"chars, ratio {end / middle:.2f}x (target <= 1.25x); "
            f"summarizer calls {report['summary_calls']}, model requests "
            f"{report['summary_model_calls']}; retained {kept}/{planted} planted facts"
        )
    default = reports["three_turn"]
    with tempfile.TemporaryDirectory() as tmp:
        early, late = interleaved(turns, args.rate, Path(tmp))
    print(
        f"\nthree_turn core targets: db/transcript = "
        f"{default['db_bytes'] / default['transcript_bytes']:.2f}x (target <= 3x); "
        f"digests = {len(default['summary_digests'])}"
    )
    print(describe_timing([default, *timed], early, late))


if __name__ == "__main__":
    main()
