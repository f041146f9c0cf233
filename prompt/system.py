"""System prompt of the answering model: role, previous-conversation summaries, documents."""

SYSTEM_BASE = "당신은 유용한 AI 어시스턴트입니다."

SUMMARIES_HEADER = "\n[이전 대화 요약]"

SUMMARY_LINE = "[{start}-{end}턴{when}] {summary}"

WINDOW_HEADER = "\n[이전 대화 요약]\n{window}"

MEMORY_HEADER = "\n[장기 기억]\n{memory}"

ENTITIES_HEADER = "\n[주요 정보]\n{entities}"

NO_DOCUMENTS = "관련 문서를 찾지 못했습니다."

DOCUMENTS_HEADER = (
    "\n[참고 문서]\n"
    "아래 문서 발췌만 근거로 답하고, 사용한 출처(파일 > 제목)를 답에 밝히세요. "
    "문서에 답이 없으면 없다고 말하세요.\n{documents}"
)
