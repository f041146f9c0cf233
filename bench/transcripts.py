"""Deterministic long transcripts for benchmarks (Korean office conversation, seeded)."""

from __future__ import annotations

import random

PEOPLE = ["김민수", "이서연", "박지훈", "최유진", "정하늘", "강도윤", "윤서아", "장현우"]
PLACES = ["서울 본사", "판교 연구소", "부산 지사", "제주 연수원", "대전 센터"]
TOPICS = [
    (
        "예산",
        "{p}님이 {place} 리모델링 예산을 {n}만원으로 올려 달라고 했어요. 가능할까요?",
        "{place} 리모델링 예산 {n}만원 요청은 분기 예산의 {pct}%에 해당합니다. 재무팀 승인 기준이 {lim}만원이므로 "
        "{p}님이 사전 품의서를 올리면 검토할 수 있습니다. 견적서 두 곳 이상을 함께 첨부하는 것이 좋습니다.",
    ),
    (
        "일정",
        "{p}님과 {place}에서 {m}월 {d}일 오후 {h}시에 회의를 잡아 줄 수 있나요?",
        "{m}월 {d}일 오후 {h}시 {place} 회의실을 확인했습니다. {p}님 일정과 겹치지 않으며, 참석자 {k}명 기준으로 "
        "중회의실을 예약했습니다. 회의 안건은 전날까지 공유해 주세요.",
    ),
    (
        "채용",
        "{place} 개발팀에 신입 {k}명을 뽑으려는데 면접관은 누가 좋을까요?",
        "{place} 개발팀 신입 {k}명 채용이면 면접관은 {p}님을 포함해 세 명이 적당합니다. 서류 마감은 {m}월 {d}일로 "
        "잡고, 코딩 테스트는 {h}시간 과제로 진행하는 것을 권합니다.",
    ),
    (
        "출장",
        "{p}님이 {place} 출장을 {k}박으로 가는데 경비 한도가 얼마죠?",
        "{place} {k}박 출장이면 숙박비는 1박 {lim}원, 일비는 {n}원까지 정산됩니다. {p}님은 출장 {h}일 전까지 "
        "전자결재로 신청해야 하고, 영수증은 복귀 후 {d}일 안에 제출하면 됩니다.",
    ),
    (
        "장애",
        "어제 {h}시쯤 {place} 서버가 {k}분 동안 멈췄는데 원인이 뭐였나요?",
        "{place} 서버 장애는 {h}시 {d}분에 시작해 {k}분간 이어졌습니다. 디스크 사용률이 {pct}%를 넘으면서 로그 "
        "수집기가 멈춘 것이 원인이었고, {p}님이 로그 보관 주기를 {n}일로 줄여 조치했습니다.",
    ),
]


def make_transcript(turns: int = 300, seed: int = 7) -> dict[str, list[dict[str, str]]]:
    """A `{"turns": [{"user", "assistant"}]}` transcript of `turns` turns."""
    rng = random.Random(seed)
    out = []
    for _ in range(turns):
        _, user, assistant = rng.choice(TOPICS)
        values = {
            "p": rng.choice(PEOPLE),
            "place": rng.choice(PLACES),
            "n": rng.randint(12, 980),
            "m": rng.randint(1, 12),
            "d": rng.randint(1, 28),
            "h": rng.randint(1, 9),
            "k": rng.randint(2, 40),
            "pct": rng.randint(5, 95),
            "lim": rng.choice([150000, 200000, 500]),
        }
        out.append({"user": user.format(**values), "assistant": assistant.format(**values)})
    return {"turns": out}
