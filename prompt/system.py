"""System prompt of the answering model: role, previous-conversation summaries, documents."""

SYSTEM_BASE = "당신은 유용한 AI 어시스턴트입니다."

SUMMARIES_HEADER = "\n[이전 대화 요약]"

SUMMARY_LINE = "[{start}-{end}턴{when}] {summary}"

WINDOW_HEADER = "\n[이전 대화 요약]\n{window}"

MEMORY_HEADER = "\n[장기 기억]\n{memory}"

ENTITIES_HEADER = "\n[주요 정보]\n{entities}"

NO_DOCUMENTS = "관련 문서를 찾지 못했습니다."

NOT_FOUND_MENUS = "관련 문서를 찾지 못했습니다. 다음 메뉴에서 확인해 보세요: {menus}"

IN_PREPARATION = "해당 내용은 준비 중입니다."

FALLBACK_RULE = "\n위 문장 그대로 답하고(영어 질문에는 영어로), 문서에 없는 내용은 지어내지 마세요."

DOCUMENTS_HEADER = (
    "\n[참고 문서]\n"
    "아래 문서 발췌만 근거로 답하고, 사용한 출처(파일 > 제목)를 답에 밝히세요. "
    "문서에 답이 없으면 없다고 말하세요.\n{documents}"
)

DOCUMENTS_ABSENT = (
    "(질문의 이 말은 어떤 문서에도 나오지 않습니다: {words}. 아래 발췌는 질문의 다른 말로 "
    "찾은 것이니, 발췌가 그것을 다루지 않으면 문서에 없다고 말하세요.)"
)

DOCUMENT_PART = "{{질문 중 “{part}”에 대한 발췌}} "
"""Before a passage the retrieval loop chose for one part of a two-part question."""

RECALLED_HEADER = (
    "\n[관련 이전 대화]\n"
    "지금 메시지와 관련해 보관된 이전 대화에서 찾은 원문입니다. 앞의 번호는 턴, 그다음은 보낸 "
    "시각입니다. 같은 내용이 나중에 바뀌었다면 가장 최근 턴이 현재 정보입니다. 답에 쓴 내용은 "
    "몇 턴에서 나왔는지 밝히세요.\n{recalled}"
)

PINNED_HEADER = "\n[고정된 사실]\n사용자가 항상 기억하라고 고정한 사실입니다. 요약에서 빠졌더라도 유효합니다.\n{pinned}"

CONTINUE = (
    "앞의 답은 길이 제한에서 끊겼습니다. 끊긴 바로 그 자리부터 이어서 쓰세요. 이미 쓴 내용은 "
    "되풀이하지 말고, 답과 같은 언어로 쓰세요."
)
"""Continue: the cut-off answer is the assistant's last message; this is the user's."""

IN_WORDS = (
    "(도구를 쓸 수 없습니다. 도구 호출이나 JSON 없이, 지금까지의 대화와 위 내용만으로 말로 "
    "답하세요. Answer in plain words, without a tool call or JSON.)"
)
"""Added to the user's message when a step is asked again without tools: the model wrote a
call that cannot run (no such tool, arguments refused, cut off) or nothing but markup."""

TOOL_RESULT = "[{tool} 결과] {result}"
"""A tool's result written into the user's message when the step is asked again in words."""
