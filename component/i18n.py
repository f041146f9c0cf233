"""Interface strings in Korean (default, as in the design) and English."""

from __future__ import annotations

import re
from typing import Any

LANGUAGES = {"ko": "한국어", "en": "English"}

_STRINGS: dict[str, dict[str, str]] = {
    "title": {"ko": "요약하며 기억하는 채팅", "en": "A chat that shows how it remembers"},
    "advanced": {"ko": "⚙️ 고급 설정", "en": "⚙️ Advanced settings"},
    "rate": {"ko": "요약 압축률", "en": "Summary compression rate (share kept)"},
    "rate_help": {
        "ko": "낮을수록 짧게 요약, 높을수록 상세하게 요약",
        "en": "Lower gives shorter summaries, higher keeps more detail",
    },
    "rate_scale": {
        "ko": "0.1 (짧게) · 0.3 (균형) · 0.5 (상세)",
        "en": "0.1 short · 0.3 balanced · 0.5 detailed",
    },
    "rate_next": {
        "ko": "변경한 압축률은 다음 요약부터 적용됩니다.",
        "en": "A new rate applies from the next summary on.",
    },
    "budget": {"ko": "요약 예산 (글자)", "en": "Summary budget (characters)"},
    "budget_help": {
        "ko": "컨텍스트에 요약을 이만큼까지 그대로 둡니다. 넘으면 가장 오래된 요약 셋을 다이제스트(요약의 요약)로 합칩니다. 기본 8,000자는 500자 턴(시드의 예: 세 턴에 1,500자), 압축률 0.3에서 50턴까지 시드 002의 표(요약 16개 + 원문 2턴)를 지킵니다.",
        "en": "Summaries stay in the context as they are up to this size; past it the oldest three are merged into a digest (a summary of summaries). The default 8,000 keeps seed 002's table (16 summaries + 2 raw turns at turn 50) for turns of up to 500 characters (the seed's example: 1,500 per three turns) at rate 0.3.",
    },
    "recall": {"ko": "이전 대화 회상", "en": "Recall earlier turns"},
    "recall_help": {
        "ko": "메시지마다 보관된 이전 턴을 검색해 관련 있는 원문 몇 개를 [관련 이전 대화]로 컨텍스트에 넣습니다. 관련 있는 것이 없으면 아무것도 넣지 않습니다.",
        "en": "Each message searches the archived turns and adds the few relevant ones, verbatim, to the context as [관련 이전 대화]. When nothing is relevant, nothing is added.",
    },
    "threads": {"ko": "💬 대화 목록", "en": "💬 Conversations"},
    "new_thread": {"ko": "새 대화", "en": "New conversation"},
    "untitled": {"ko": "(제목 없음)", "en": "(untitled)"},
    "rename": {"ko": "이름 바꾸기", "en": "Rename"},
    "save": {"ko": "저장", "en": "Save"},
    "delete": {"ko": "삭제", "en": "Delete"},
    "delete_confirm": {
        "ko": "이 대화와 요약을 모두 삭제합니다. 되돌릴 수 없습니다.",
        "en": "This deletes the conversation and its summaries. It cannot be undone.",
    },
    "delete_yes": {"ko": "삭제 확인", "en": "Yes, delete"},
    "cancel": {"ko": "취소", "en": "Cancel"},
    "welcome": {
        "ko": "안녕하세요! 이 채팅은 대화가 길어져도 기억하도록 세 턴마다 요약하고, 무엇을 남기고 무엇을 뺐는지 오른쪽 패널에 보여 줍니다. 아래 예시를 눌러 시작해 보세요. 네 번째 메시지에서 첫 요약이 생깁니다.",
        "en": "Hello! This chat summarizes every three turns so a long conversation stays remembered, and the panel on the right shows what each summary kept and what it dropped. Click an example to start; the first summary appears at the fourth message.",
    },
    "examples": {
        "ko": "제 이름은 한지우이고, 3월 14일에 부산 출장이 있어요.\n출장 숙박 예산은 1박 12만원으로 잡았어요.\n2400의 15%는 얼마야?\n제 출장이 언제라고 했죠?\n재택근무는 어떻게 신청해?",
        "en": "My name is Jiwoo and I have a business trip to Busan on March 14.\nMy hotel budget for the trip is $110 a night.\nWhat is 15% of 2400?\nWhen did I say my trip was?\nHow do I apply for remote work?",
    },
    "index": {"ko": "📚 문서 색인", "en": "📚 Document index"},
    "index_size": {
        "ko": "문서 {docs}개 · 조각 {chunks}개 · 검색: {mode}",
        "en": "{docs} documents · {chunks} chunks · search: {mode}",
    },
    "index_mode_hybrid": {"ko": "하이브리드 (키워드 + 벡터)", "en": "hybrid (keyword + vectors)"},
    "index_mode_keyword": {"ko": "키워드만", "en": "keywords only"},
    "index_mode_faiss": {"ko": "벡터만 (FAISS)", "en": "vectors only (FAISS)"},
    "index_building": {
        "ko": "벡터 만드는 중 {done}/{total} · 그동안 키워드 검색",
        "en": "building vectors {done}/{total}; keyword search meanwhile",
    },
    "index_reason_shared_server": {
        "ko": "키워드 검색: EMBEDDING_MODEL이 없어 답하는 모델 서버로 문서를 임베딩하지 않습니다 "
        "(같은 서버가 임베딩하면 답이 그 뒤에서 기다립니다). EMBEDDING_MODEL을 정하면 턴 사이에 만듭니다.",
        "en": "Keyword search: EMBEDDING_MODEL is not set, so the server that answers the chat does "
        "not embed the documents (answers would wait behind it). Set EMBEDDING_MODEL to build "
        "vectors there, between turns.",
    },
    "doc_kind_faq": {"ko": "FAQ", "en": "FAQ"},
    "doc_kind_guide": {"ko": "안내서", "en": "guide"},
    "doc_steps": {"ko": "절차 있음", "en": "has steps"},
    "doc_sections": {"ko": "섹션 {n}개", "en": "{n} sections"},
    "settings_failed": {
        "ko": "설정 값이 올바르지 않아 앱을 열 수 없습니다: {msg}",
        "en": "A setting has a value the app cannot use: {msg}",
    },
    "index_degraded": {
        "ko": "임베딩을 만들지 못해 문서 검색이 키워드로만 동작합니다. 자세한 이유는 '문서 색인'에 있습니다.",
        "en": "Embeddings failed, so document search uses keywords only. See 'Document index' for why.",
    },
    "too_long": {
        "ko": "메시지가 {n:,}글자입니다. 한 번에 {limit:,}글자까지 보낼 수 있습니다. 입력한 글은 입력창에 그대로 있습니다.",
        "en": "The message has {n:,} characters; the limit is {limit:,}. Your text is back in the input box.",
    },
    "search_threads": {"ko": "🔎 제목으로 찾기", "en": "🔎 Search by title"},
    "no_threads_found": {"ko": "맞는 대화가 없습니다.", "en": "No conversation matches."},
    "today": {"ko": "오늘", "en": "Today"},
    "yesterday": {"ko": "어제", "en": "Yesterday"},
    "engine": {"ko": "🤖 응답 엔진", "en": "🤖 Engine"},
    "engine_offline": {
        "ko": "오프라인 엔진 (모델 없음, API 키 없음)",
        "en": "Offline engine (no model, no API key)",
    },
    "engine_openai": {"ko": "OpenAI {model}", "en": "OpenAI {model}"},
    "engine_compatible": {"ko": "{model} ({url})", "en": "{model} at {url}"},
    "window_block": {"ko": "[대화 기록 {n}]", "en": "[window summary {n}]"},
    "route_reason_tool": {
        "ko": "도구를 쓰는 요청 (계산, 시간, 날씨, 코드, 웹)",
        "en": "plain tool request (arithmetic, time, weather, code, web)",
    },
    "route_reason_recall": {
        "ko": "문서가 아니라 이 대화에 대한 질문",
        "en": "asks about this conversation, not the documents",
    },
    "route_reason_statement": {
        "ko": "질문이 아닌 말: 찾아볼 것이 없음",
        "en": "a statement, not a question: nothing to look up",
    },
    "route_reason_together": {
        "ko": "여러 문서가 함께 일치: {sources}",
        "en": "documents match together: {sources}",
    },
    "route_reason_match": {
        "ko": "문서 일치: {source} (신뢰도 {confidence})",
        "en": "document match: {source} (confidence {confidence})",
    },
    "route_reason_rules": {
        "ko": "회사 규정에 대한 질문이지만 맞는 문서가 없음",
        "en": "asks about company rules, but no document matched",
    },
    "route_reason_greeting": {
        "ko": "인사말: 라우터와 도구 없이 바로 답함",
        "en": "plain greeting: answered directly, no router call and no tools",
    },
    "route_reason_none": {
        "ko": "일상 대화나 일반 질문: 맞는 문서가 없음",
        "en": "small talk or general question; no document matched",
    },
    "offline_note": {
        "ko": "오프라인 엔진: 모델 가중치도 API 키도 없이 규칙으로 답합니다. 도구를 부르고, 대화 기록과 요약에서 찾아 인용합니다.",
        "en": "Offline engine: no model weights and no API key. It calls tools and quotes the conversation and its summaries.",
    },
    "summary_by": {"ko": "요약: {name}", "en": "Summaries: {name}"},
    "tools": {"ko": "🧰 도구", "en": "🧰 Tools"},
    "language": {"ko": "언어", "en": "Language"},
    "input": {"ko": "메시지를 입력하세요", "en": "Type a message"},
    "candidates": {"ko": "🗳️ 답변 후보 ({n}개)", "en": "🗳️ Answer candidates ({n})"},
    "candidates_rule": {
        "ko": "점수 = 0.6 × 질문 단어 포함률 + 0.4 × 맥락에 있는 숫자 비율 − 0.2 (20자 미만). "
        "가장 높은 후보를 골라 보여 줍니다. 도구를 부르는 단계는 후보 하나만 씁니다.",
        "en": "score = 0.6 × share of the question's words in the answer + 0.4 × share of its "
        "numbers found in the context − 0.2 (under 20 characters). The highest is shown; a "
        "step that calls tools uses one candidate.",
    },
    "candidate_item": {
        "ko": "후보 {i}: 점수 {score}, {chars}자",
        "en": "Candidate {i}: score {score}, {chars} characters",
    },
    "candidate_tools": {
        "ko": "후보 {i}: 도구 호출 ({tools})",
        "en": "Candidate {i}: calls {tools}",
    },
    "candidate_failed": {"ko": "후보 {i}: 실패", "en": "Candidate {i}: failed"},
    "stop": {"ko": "⏹ 답변 중지", "en": "⏹ Stop answering"},
    "step_tool": {"ko": "🔧 `{tool}` 도구를 부르는 중…", "en": "🔧 calling `{tool}`…"},
    "step_summary": {"ko": "📝 {turns}번째 턴을 요약했습니다", "en": "📝 summarized turns {turns}"},
    "step_running": {"ko": "⚙️ 도구를 실행하는 중…", "en": "⚙️ running the tool…"},
    "step_plan": {"ko": "🧭 계획: {n}단계 ({agents})", "en": "🧭 plan: {n} step(s) ({agents})"},
    "step_agent": {
        "ko": "▶ {n}단계 · {agent}: {question}",
        "en": "▶ step {n} · {agent}: {question}",
    },
    "empty": {
        "ko": "빈 메시지는 보내지 않았습니다. 내용을 입력해 주세요.",
        "en": "Empty message not sent; type something first.",
    },
    "show_earlier": {"ko": "이전 턴 더 보기 ({n}턴 숨김)", "en": "Show earlier turns ({n} hidden)"},
    "turn": {"ko": "{n}턴", "en": "Turn {n}"},
    "tool_step": {"ko": "🔧 {name} 호출", "en": "🔧 {name} call"},
    "error_code": {"ko": "오류 코드: {code}", "en": "Error code: {code}"},
    "cut_off_LLM_TRUNCATED": {
        "ko": "✂️ 답변이 길이 제한에서 끊겼습니다 (LLM_TRUNCATED). 여기까지가 받은 답입니다.",
        "en": "✂️ The answer was cut off at the length limit (LLM_TRUNCATED). This is what came.",
    },
    "cut_off_LLM_TIMEOUT": {
        "ko": "⏱️ 답변이 턴의 시간 제한에서 끊겼습니다 (LLM_TIMEOUT). 여기까지가 받은 답입니다.",
        "en": "⏱️ The answer was cut off at the turn's time limit (LLM_TIMEOUT). This is what came.",
    },
    "continue": {"ko": "▶️ 이어서 쓰기", "en": "▶️ Continue"},
    "card_fallback": {
        "ko": "↩️ 모델의 요약을 쓰지 않고 추출 요약으로 대신했습니다: {reason}",
        "en": "↩️ The model's summary was not used; the extractive one stands in: {reason}",
    },
    "unanswered": {
        "ko": "답하지 못한 턴입니다. 메시지는 저장되어 있습니다.",
        "en": "This turn was not answered. The message is saved.",
    },
    "retry": {"ko": "🔁 이 턴 다시 답하기", "en": "🔁 Answer this turn again"},
    "stopped_note": {
        "ko": "⏹ 중지하신 답변입니다. 위는 중지 전까지 쓴 내용입니다.",
        "en": "⏹ You stopped this answer; above is what was written before the stop.",
    },
    "rejected_note": {
        "ko": "✋ 거절하셔서 실행하지 않았습니다.",
        "en": "✋ You rejected it; nothing was run.",
    },
    "approval": {
        "ko": "⚠️ 코드 실행 승인이 필요합니다",
        "en": "⚠️ Code execution needs your approval",
    },
    "approval_contract": {
        "ko": "⚠️ 계약 관련 작업(서명·체결·해지)입니다. 승인이 필요합니다",
        "en": "⚠️ This call acts on a contract (signing, agreeing, terminating). It needs your approval",
    },
    "approval_payment": {
        "ko": "⚠️ 결제 관련 작업(결제·송금·구매, 카드 번호)입니다. 승인이 필요합니다",
        "en": "⚠️ This call involves a payment (paying, transferring money, buying, a card number). It needs your approval",
    },
    "approval_sensitive": {
        "ko": "⚠️ 민감한 개인정보(주민등록번호·비밀번호·계좌번호·건강 정보 등)가 담긴 호출입니다. 승인이 필요합니다",
        "en": "⚠️ This call carries sensitive personal data (an ID number, a password, an account number, health data). It needs your approval",
    },
    "approval_outbound": {
        "ko": "⚠️ 외부로 내용을 보내는 도구입니다. 승인이 필요합니다",
        "en": "⚠️ This tool sends text out of the machine. It needs your approval",
    },
    "approval_category": {"ko": "승인 분류: {category}", "en": "Approval category: {category}"},
    "approval_contract_question": {
        "ko": "⚠️ 계약 문서에 관한 질문입니다. 계약 관련 단계는 늘 승인을 받은 뒤 진행합니다 (서명이나 해지 같은 행위는 하지 않습니다)",
        "en": "⚠️ This step reads a contract to answer a question. Contract steps always wait for your approval (nothing is signed or ended)",
    },
    "step_help": {
        "ko": "{n}단계: {agent}이(가) 아래 질문에 답합니다. 승인하기 전에는 진행하지 않습니다. 거절하면 진행하지 않고 이 작업을 끝냅니다.",
        "en": "Step {n}: {agent} answers the question below. Nothing happens before you approve; rejecting ends the task.",
    },
    "step_edit": {"ko": "질문을 고쳐서 진행", "en": "Go on with the edited question"},
    "agent_documents": {"ko": "문서 담당", "en": "the documents assistant"},
    "agent_contract": {"ko": "계약 문서 담당", "en": "the contracts assistant"},
    "agent_web": {"ko": "웹 검색 담당", "en": "the web assistant"},
    "agent_code": {"ko": "코드 실행 담당", "en": "the code assistant"},
    "agent_data": {"ko": "계산·파일 담당", "en": "the data assistant"},
    "agent_general": {"ko": "일반 답변 담당", "en": "the general assistant"},
    "tool_label_calculator": {"ko": "계산기", "en": "Calculator"},
    "tool_label_get_current_datetime": {"ko": "시계 (현재 시각)", "en": "Clock"},
    "tool_label_get_weather": {"ko": "날씨 조회", "en": "Weather"},
    "tool_label_search_wikipedia": {"ko": "위키백과 검색", "en": "Wikipedia search"},
    "tool_label_web_search": {"ko": "웹 검색", "en": "Web search"},
    "tool_label_python_repl": {"ko": "코드 실행", "en": "Run code"},
    "tool_label_read_file": {"ko": "파일 읽기", "en": "Read a file"},
    "tool_needs_key": {
        "ko": "꺼짐: API 키({var})가 설정되어 있지 않습니다",
        "en": "off: needs the API key {var}",
    },
    "tool_needs_sandbox": {
        "ko": "꺼짐: 격리 실행 환경에 {what}이(가) 없습니다",
        "en": "off: the sandbox needs {what}",
    },
    "tool_off": {"ko": "꺼짐: {reason}", "en": "off: {reason}"},
    "decision_approve": {"ko": "결정: 승인", "en": "decision: approved"},
    "decision_edit": {"ko": "결정: 수정해서 실행", "en": "decision: edited"},
    "decision_respond": {"ko": "결정: 실행 대신 직접 답함", "en": "decision: answered instead"},
    "decision_reject": {"ko": "결정: 거절", "en": "decision: rejected"},
    "result_rejected": {
        "ko": "거절하셔서 실행하지 않았습니다.",
        "en": "You rejected this call; it was not run.",
    },
    "result_not_run": {
        "ko": "앞선 호출을 거절하셔서 실행하지 않았습니다.",
        "en": "Not run: you rejected an earlier call of this step.",
    },
    "result_answered": {
        "ko": "실행하지 않고 직접 주신 답: {said}",
        "en": "Not run; your answer instead: {said}",
    },
    "category_contract": {"ko": "계약 (contract)", "en": "contract"},
    "category_payment": {"ko": "결제 (payment)", "en": "payment"},
    "category_sensitive": {"ko": "민감 정보 (sensitive)", "en": "sensitive"},
    "category_code": {"ko": "코드 실행 (code)", "en": "code"},
    "category_outbound": {"ko": "외부 전송 (outbound)", "en": "outbound"},
    "approval_call_help": {
        "ko": "도구 {tool}이(가) 아래 인자로 호출됩니다. 승인하기 전에는 실행되지 않습니다. 거절하면 실행하지 않고 이 작업을 끝냅니다.",
        "en": "The tool {tool} is called with the arguments below. Nothing runs before you approve; rejecting ends the task without running it.",
    },
    "respond_label": {
        "ko": "실행하지 않고 직접 답하기",
        "en": "Answer it yourself instead of running it",
    },
    "respond_help": {
        "ko": "여기 쓴 답이 도구의 결과 대신 전달되고, AI는 그 답으로 이어서 답합니다.",
        "en": "What you write here is handed over instead of the tool's result, and the AI answers from it.",
    },
    "respond": {"ko": "이 답으로 계속", "en": "Go on with this answer"},
    "approval_help": {
        "ko": "아래 코드는 별도 프로세스에서 제한(시간·메모리·출력)을 두고 실행됩니다. 승인하기 전에는 실행되지 않습니다.",
        "en": "The code below runs in a separate, limited process (time, memory, output). Nothing runs before you approve.",
    },
    "may_have_run": {
        "ko": "이 코드는 앞서 승인되어 실행되던 중에 앱이 멈췄습니다. 이미 실행되었을 수 있습니다. 다시 승인하면 한 번 더 실행됩니다.",
        "en": "This code was approved and running when the app stopped; it may already have run. Approving again runs it once more.",
    },
    "outbound_data_in_context": {
        "ko": "모델이 보는 컨텍스트(이번 턴, 이전 턴, 요약 포함)에 문서·파일·웹 등 외부에서 온 내용이 있습니다. {tool}은(는) 내용을 외부로 보내므로, 그 안의 지시를 따른 호출이 아닌지 확인하고 승인해 주세요.",
        "en": "The context the model sees (this turn, earlier turns, summaries) holds text from a document, a file, the web or elsewhere. {tool} sends text out of the machine: check that the call is not following instructions hidden in that text.",
    },
    "approval_sources": {
        "ko": "외부에서 온 내용: {sources}",
        "en": "Untrusted text in the context: {sources}",
    },
    "outbound_prompt_injection": {
        "ko": "이 메시지는 지시를 바꾸려는 시도로 분류되었습니다. {tool}은(는) 내용을 외부로 보내므로 승인이 필요합니다.",
        "en": "This message was labelled a prompt injection. {tool} sends text out of the machine, so it needs your approval.",
    },
    "safeguard": {
        "ko": "🛡️ 안전 분류: {label} ({policy}){reasons}",
        "en": "🛡️ Safeguard: {label} ({policy}){reasons}",
    },
    "approve": {"ko": "승인하고 실행", "en": "Approve and run"},
    "reject": {"ko": "거절", "en": "Reject"},
    "edit": {"ko": "수정해서 실행", "en": "Run edited code"},
    "thread_gone": {
        "ko": "링크의 대화는 더 이상 없습니다 (삭제되었습니다). 새 대화를 열었습니다.",
        "en": "The linked conversation no longer exists (it was deleted). A new one is open.",
    },
    "pending_block": {
        "ko": "승인 대기 중인 코드가 있어 새 메시지를 보낼 수 없습니다.",
        "en": "Answer the pending approval before sending a new message.",
    },
    "panel": {"ko": "📝 대화 요약 히스토리", "en": "📝 Summary history"},
    "current_rate": {
        "ko": "현재 압축률: {rate}",
        "en": "Current compression rate: {rate} (share kept)",
    },
    "no_summaries": {
        "ko": "아직 요약이 없습니다. 4번째 턴에 1-3턴이 요약됩니다.",
        "en": "No summaries yet. Turns 1-3 are summarized at turn 4.",
    },
    "card_title": {
        "ko": "[{start}-{end}턴 요약] 압축률 {rate}",
        "en": "[Turns {start}-{end}] compression rate {rate}",
    },
    "card_chars": {"ko": "{orig}자 → {summ}자", "en": "{orig} → {summ} chars"},
    "card_target": {
        "ko": "목표 {target}자 (원본 × 압축률) · 실제 {summ}자 (목표의 {pct}%)",
        "en": "target {target} chars (original × rate) · actual {summ} ({pct}% of the target)",
    },
    "card_cost": {
        "ko": "비용: 모델 호출 {calls}회 · {ms}ms{tokens}",
        "en": "cost: {calls} model calls · {ms} ms{tokens}",
    },
    "stats": {"ko": "📊 요약 통계", "en": "📊 Summary statistics"},
    "stats_total": {
        "ko": "총 요약: {n}개 ({turns}턴 압축)",
        "en": "Summaries: {n} ({turns} turns compressed)",
    },
    "stats_chars": {
        "ko": "원본: {orig}자 → 요약: {summ}자",
        "en": "Original: {orig} → summary: {summ} chars",
    },
    "stats_saved": {
        "ko": "전체 압축률: {pct}% 절감 (1 − 요약/원본)",
        "en": "Overall: {pct}% saved (1 − summary/original)",
    },
    "sections_header": {
        "ko": "| 구역 | 토큰 (추정) | 예산 | 뺀 항목 |",
        "en": "| Section | Tokens (est.) | Budget | Left out |",
    },
    "sections_note": {
        "ko": "토큰은 토크나이저 없이 추정합니다: ASCII 4자당 1, 그 밖의 글자는 1자당 1. 예산을 넘으면 순위가 가장 낮은 항목(오래된 요약·정보·대화, 낮은 순위 문서)부터 뺍니다. 역할 문구와 질문은 자르지 않습니다.",
        "en": "Tokens are estimated without a tokenizer: 1 per 4 ASCII characters, 1 per other character. Over budget, a section drops its lowest-ranked items first (oldest summaries, entities and turns; lowest-ranked passages). The role text and the question are never cut.",
    },
    "section_system": {"ko": "시스템 프롬프트", "en": "System prompt"},
    "section_memory": {"ko": "장기 기억 (요약·회상)", "en": "Long-term memory (summaries, recall)"},
    "section_entities": {"ko": "주요 정보", "en": "Entities"},
    "section_recent": {"ko": "최근 대화 (원문)", "en": "Recent turns (raw)"},
    "section_documents": {"ko": "참고 문서", "en": "Documents"},
    "section_question": {"ko": "현재 질문", "en": "Question"},
    "next_context": {
        "ko": "🔎 다음 턴에 모델이 보는 내용",
        "en": "🔎 What the model sees next turn",
    },
    "next_size": {"ko": "{chars}자 · 메시지 {n}개", "en": "{chars} chars · {n} messages"},
    "next_summarize": {
        "ko": "다음 턴 시작 시 {start}-{end}턴이 먼저 요약됩니다 (아래는 요약 전 모습).",
        "en": "At the next turn, turns {start}-{end} are summarized first (shown before that).",
    },
    "next_fold": {
        "ko": "다음 답변이 끝난 뒤 {start}-{end}턴이 장기 기억에 합쳐집니다 (답변은 기다리지 않습니다. 아래는 그 답변이 받는 그대로).",
        "en": "After the next answer, turns {start}-{end} join the memory (the answer does not wait for it; shown is what that answer gets).",
    },
    "chart": {"ko": "📈 턴별 컨텍스트 크기", "en": "📈 Context size per turn"},
    "chart_with": {"ko": "모델이 받은 컨텍스트", "en": "context the model got"},
    "chart_without": {
        "ko": "기억 없이 (대화 전체 원문)",
        "en": "no memory (the whole transcript)",
    },
    "chart_series": {"ko": "계열", "en": "series"},
    "axis_turn": {"ko": "턴", "en": "turn"},
    "axis_chars": {"ko": "글자 수 (자)", "en": "size (characters)"},
    "chart_saving": {
        "ko": "{turn}턴: 컨텍스트 {used}자 / 대화 전체 원문 {whole}자 → 절감 {saving} (1 − 컨텍스트/원문)",
        "en": "Turn {turn}: context {used} chars / whole transcript {whole} chars → saving {saving} (1 − context/transcript)",
    },
    "chart_cost": {
        "ko": "{turn}턴: 컨텍스트 {used}자 / 대화 전체 원문 {whole}자 → 원문보다 {extra}자({pct}) 더 씀. 원문에 없는 {what}이(가) 더해졌고, 대화가 아직 짧아 요약이 줄여 준 원문보다 깁니다.",
        "en": "Turn {turn}: context {used} chars / whole transcript {whole} chars → {extra} chars ({pct}) more than the transcript: it holds {what}, which the transcript does not, and the conversation is still too short for its summaries to save more than that.",
    },
    "cost_memory": {
        "ko": "장기 기억(요약·회상·고정된 사실)",
        "en": "long-term memory (summaries, recalled turns, pinned facts)",
    },
    "cost_entities": {"ko": "주요 정보", "en": "entities"},
    "stats_cost": {
        "ko": "전체: 요약이 원본보다 {extra}자({pct}%) 깁니다 (절감 없음: 요약이 목표 길이를 넘었습니다)",
        "en": "Overall: the summaries are {extra} chars ({pct}%) longer than the turns (no saving: they ran past their target length)",
    },
    "compare_last": {
        "ko": "{turn}턴의 컨텍스트 (오프라인 추출 요약으로 다시 재생, 회상·고정된 사실 없이): {sizes}",
        "en": "Context at turn {turn} (replayed with the offline extractive summarizer, no recall or pins): {sizes}",
    },
    "compare_empty": {
        "ko": "아직 턴이 없어 비교할 대화가 없습니다. 메시지를 보낸 뒤 실행하세요.",
        "en": "This conversation has no turns yet, so there is nothing to compare. Send a message first.",
    },
    "download": {"ko": "⬇️ 대화 내보내기 (JSON)", "en": "⬇️ Export conversation (JSON)"},
    "import": {
        "ko": "⬆️ 대화 가져오기 (내보낸 JSON 또는 replay JSON)",
        "en": "⬆️ Import a conversation (an export, or a replay JSON)",
    },
    "imported_mark": {"ko": " (가져옴)", "en": " (imported)"},
    "upload_button": {"ko": "파일 선택", "en": "Upload"},
    "upload_limit": {"ko": "JSON 파일 · 파일당 최대 {mb}MB", "en": "JSON · {mb}MB per file"},
    "import_failed": {
        "ko": "가져오지 못했습니다: {msg}",
        "en": "Could not import: {msg}",
    },
    "import_done": {
        "ko": "{n}턴을 새 대화로 가져왔습니다.",
        "en": "Imported {n} turns into a new conversation.",
    },
    "route": {"ko": "경로: {route}", "en": "Route: {route}"},
    "plan": {
        "ko": "🧭 수퍼바이저의 계획: {n}단계 ({how})",
        "en": "🧭 The supervisor's plan: {n} step(s) ({how})",
    },
    "plan_goal": {
        "ko": "목표: {goal} · 분류: {category}",
        "en": "Goal: {goal} · category: {category}",
    },
    "plan_step": {
        "ko": "{n}. **{agent}** · {status} — {question}",
        "en": "{n}. **{agent}** · {status} — {question}",
    },
    "plan_sources": {"ko": "출처: {sources}", "en": "Sources: {sources}"},
    "plan_left_out": {
        "ko": "단계 한도를 넘은 {n}개 부분은 다루지 않았습니다.",
        "en": "{n} part(s) past the step limit were left out.",
    },
    "absent_words": {
        "ko": "어떤 문서에도 없는 질문의 말: {words} (찾은 문서는 다른 말로 찾은 것)",
        "en": "Words of the question no document uses: {words} (the passages match its other words)",
    },
    "passages": {"ko": "📚 이번 턴에 사용한 문서", "en": "📚 Passages used this turn"},
    "retrieval_steps": {
        "ko": "🔎 문서 검색 단계 (재순위·충분성 판단) · {outcome}",
        "en": "🔎 Retrieval steps (rerank and sufficiency) · {outcome}",
    },
    "outcome_answered": {"ko": "충분", "en": "sufficient"},
    "outcome_best_effort": {
        "ko": "3회 후 찾은 것으로 답함",
        "en": "answered with what 3 calls found",
    },
    "outcome_not_found": {"ko": "관련 문서 없음", "en": "nothing relevant"},
    "outcome_in_preparation": {"ko": "준비 중", "en": "in preparation"},
    "menus": {"ko": "추천 메뉴: {menus}", "en": "Suggested menus: {menus}"},
    "errors": {"ko": "⚠️ 기록된 오류", "en": "⚠️ Recorded errors"},
    "storage_notice": {"ko": "저장소 알림: {msg}", "en": "Storage notice: {msg}"},
    "storage_failed": {
        "ko": "대화 저장소를 열 수 없습니다: {msg}",
        "en": "The conversation store cannot be opened: {msg}",
    },
    "thread_damaged": {
        "ko": "이 대화는 저장된 상태를 읽을 수 없습니다 ({error}). 다른 대화는 그대로 쓸 수 있고, 아래에서 이 대화 중 읽을 수 있는 부분을 내려받을 수 있습니다.",
        "en": "This conversation's saved state cannot be read ({error}). The other conversations work as before; below you can download what can still be read of this one.",
    },
    "salvage": {"ko": "⬇️ 읽을 수 있는 부분 내려받기", "en": "⬇️ Download what can be read"},
    "strategy": {"ko": "기억 방식", "en": "Memory strategy"},
    # the select box shows the short name whole in the sidebar; the caption under it the rest
    "strategy_three_turn": {"ko": "3턴 요약 (기본)", "en": "3-turn summaries"},
    "strategy_sliding_window": {"ko": "슬라이딩 윈도우", "en": "Sliding window"},
    "strategy_recursive": {"ko": "재귀 요약 + 주요 정보", "en": "Recursive memory"},
    "strategy_about_three_turn": {
        "ko": "3턴마다 요약하고, 예산을 넘으면 요약을 다시 요약합니다 (기본).",
        "en": "A summary every 3 turns; past the budget, summaries of summaries (default).",
    },
    "strategy_about_sliding_window": {
        "ko": "최근 요약 3개 + 메시지 5개를 봅니다.",
        "en": "The 3 newest summaries + the last 5 messages.",
    },
    "strategy_about_recursive": {
        "ko": "기억 1개 + 주요 정보 + 최근 5턴을 봅니다.",
        "en": "One memory + key entities + the last 5 turns.",
    },
    "strategy_help": {
        "ko": "대화마다 따로 정합니다. 비교하려면 같은 대화를 가져오기(replay)로 여러 번 불러오세요.",
        "en": "Chosen per conversation. To compare, import the same transcript more than once.",
    },
    "strategy_switch": {
        "ko": "바꾼 방식은 다음 턴부터 적용됩니다. 이미 만든 요약은 남고, 새 방식이 그 요약에서 시작합니다.",
        "en": "A new strategy applies from the next turn; earlier summaries stay and it starts from them.",
    },
    "in_context": {
        "ko": "🧠 다음 턴에 모델이 보는 기억 ({chars}자)",
        "en": "🧠 Memory the model sees next turn ({chars} chars)",
    },
    "digests": {"ko": "🗂️ 다이제스트 (요약의 요약)", "en": "🗂️ Digests (summaries of summaries)"},
    "digest_title": {
        "ko": "[{start}-{end}턴 다이제스트 · 단계 {level}]",
        "en": "[Turns {start}-{end} digest · level {level}]",
    },
    "digest_replaces": {"ko": "대체한 항목: {items}", "en": "Replaced: {items}"},
    "in_digest": {
        "ko": "컨텍스트에서는 {start}-{end}턴 다이제스트로 대체됨",
        "en": "Replaced in the context by the turns {start}-{end} digest",
    },
    "window": {
        "ko": "🪟 요약 창 (최대 3개, 오래된 것부터 삭제)",
        "en": "🪟 Summary window (3 at most, oldest dropped)",
    },
    "window_empty": {
        "ko": "메시지가 10개를 넘으면 오래된 메시지가 요약되어 창에 들어갑니다.",
        "en": "Past 10 messages, older ones are summarized into the window.",
    },
    "memory": {
        "ko": "🧠 장기 기억 (약 20문장, 매번 다시 씀)",
        "en": "🧠 Long-term memory (~20 sentences, rewritten)",
    },
    "memory_empty": {
        "ko": "기억 밖의 턴이 5개를 넘으면 가장 오래된 5턴이 기억에 합쳐집니다 (6턴 답변 뒤에 1-5턴). 최근 5턴은 늘 원문 그대로 보입니다.",
        "en": "Once more than 5 turns wait outside the memory, the oldest 5 join it (turns 1-5 after turn 6's answer). The last 5 turns are always shown raw.",
    },
    "compare": {"ko": "⚖️ 기억 방식 비교", "en": "⚖️ Compare memory strategies"},
    "compare_help": {
        "ko": "이 대화를 세 방식으로 다시 재생해 턴별 컨텍스트 크기를 비교합니다. 비용이 들지 않도록 오프라인 추출 요약기를 씁니다.",
        "en": "Replays this conversation under each strategy and charts the context size per turn. It uses the offline extractive summarizer, so it costs nothing.",
    },
    "compare_run": {"ko": "비교 실행", "en": "Run the comparison"},
    "n_chars": {"ko": "{n}자", "en": "{n} chars"},
    "entities": {"ko": "📌 주요 정보 (최대 25개)", "en": "📌 Entities (25 at most)"},
    "entity_key": {"ko": "항목", "en": "key"},
    "entity_value": {"ko": "값", "en": "value"},
    "entity_turn": {"ko": "턴", "en": "turn"},
    "card_time": {"ko": "🕒 {span}", "en": "🕒 {span}"},
    "facts_kept": {
        "ko": "사실 {kept}/{total}개 유지",
        "en": "{kept}/{total} facts kept",
    },
    "facts_dropped": {"ko": "빠진 사실: {facts}", "en": "dropped: {facts}"},
    "facts_pinned": {"ko": "📌 고정됨: {facts}", "en": "📌 pinned: {facts}"},
    "facts_help": {
        "ko": "원문 턴의 이름·숫자·날짜·금액·연락처가 요약에 그대로 남았는지 검사합니다. 빠진 사실을 고정하면 앞으로 모든 턴의 컨텍스트에 들어갑니다.",
        "en": "Checks whether the names, numbers, dates, amounts and contacts of the source turns survive in the summary. A pinned fact goes into the context of every turn from now on.",
    },
    "pin": {"ko": "📌 {fact}", "en": "📌 {fact}"},
    "pin_help": {
        "ko": "{turn}턴의 이 사실을 고정해 항상 컨텍스트에 넣습니다.",
        "en": "Pin this fact of turn {turn}: always in the context.",
    },
    "pins": {"ko": "📌 고정된 사실 ({n}/25)", "en": "📌 Pinned facts ({n}/25)"},
    "pins_empty": {
        "ko": "고정된 사실이 없습니다. 요약 카드의 빠진 사실을 눌러 고정할 수 있습니다.",
        "en": "Nothing pinned. Click a dropped fact on a summary card to pin it.",
    },
    "unpin": {"ko": "고정 해제", "en": "Unpin"},
    "timeline": {
        "ko": "🕰️ 타임라인 · 체크포인트 {n}개 (최근 {turns}턴)",
        "en": "🕰️ Timeline · {n} checkpoints (last {turns} turns)",
    },
    "timeline_help": {
        "ko": "노드마다 저장된 체크포인트입니다. 하나를 골라 새 대화로 갈라낼 수 있습니다(원래 대화는 그대로). 다른 압축률로 같은 질문에 다시 답하게 해서 두 답을 나란히 비교해 보세요.",
        "en": "A checkpoint is saved after every node. Pick one to fork a new conversation from it (the original stays as it is); answer the same question again at another compression rate and compare both answers.",
    },
    "timeline_all": {"ko": "모든 턴", "en": "all turns"},
    "timeline_row": {
        "ko": "{turn}턴 · {node}{marks} · {time}",
        "en": "turn {turn} · {node}{marks} · {time}",
    },
    "node_input": {"ko": "이전 턴 끝 (메시지 도착)", "en": "before the message"},
    "node___start__": {"ko": "메시지 저장됨", "en": "message saved"},
    "node_safeguard_node": {"ko": "안전 검사 후", "en": "after the safeguard"},
    "node_router_node": {"ko": "라우팅 후", "en": "after routing"},
    "node_rag_node": {"ko": "문서 검색 후", "en": "after document search"},
    "node_summary_node": {"ko": "요약 단계 후", "en": "after the summary step"},
    "node_recall_node": {"ko": "회상 후", "en": "after recall"},
    "node_llm_node": {"ko": "모델 답변 후", "en": "after the model"},
    "node_tool_node": {"ko": "도구 실행 후", "en": "after the tools"},
    "node_memory_node": {"ko": "기억 갱신 후", "en": "after the memory update"},
    "node_update": {"ko": "직접 수정", "en": "edited"},
    "node_fork": {"ko": "갈라낸 시작점", "en": "fork point"},
    "mark_summary": {"ko": " · 📝 {n}턴까지 요약됨", "en": " · 📝 summarized to turn {n}"},
    "mark_approval": {"ko": " · ⏸️ 승인 대기", "en": " · ⏸️ waiting for approval"},
    "mark_error": {"ko": " · ⚠️ {code}", "en": " · ⚠️ {code}"},
    "fork_pick": {"ko": "갈라낼 체크포인트", "en": "Checkpoint to fork from"},
    "fork_rate": {"ko": "새 대화의 압축률", "en": "Compression rate of the fork"},
    "fork_button": {"ko": "🔀 여기서 새 대화로 갈라내기", "en": "🔀 Fork a new conversation here"},
    "forked": {
        "ko": "{turn}턴의 체크포인트에서 새 대화를 만들었습니다 (압축률 {rate:.1f}).",
        "en": "Forked a new conversation from the checkpoint of turn {turn} (rate {rate:.1f}).",
    },
    "forked_from": {
        "ko": "🔀 '{title}'의 {turn}턴에서 갈라낸 대화",
        "en": "🔀 Forked from '{title}' at turn {turn}",
    },
    "fork_waiting": {
        "ko": "이 턴은 갈라낸 지점에서 멈춰 있습니다. 이어서 답하게 할 수 있습니다.",
        "en": "This turn stopped where it was forked; it can go on from there.",
    },
    "fork_continue": {"ko": "▶️ 여기서 이어서 답하기", "en": "▶️ Go on from here"},
    "recalled": {
        "ko": "🔁 이번 턴에 회상한 이전 대화 ({n}개)",
        "en": "🔁 Earlier turns recalled this turn ({n})",
    },
    "recalled_none": {
        "ko": "이번 턴에는 관련 있는 이전 대화가 없어 아무것도 회상하지 않았습니다.",
        "en": "Nothing earlier was relevant to this turn, so nothing was recalled.",
    },
    "recalled_follow": {
        "ko": "{turn}턴 · {hit}턴 내용이 나중에 바뀐 턴 · 공통 낱말: {terms}",
        "en": "Turn {turn} · a later change to turn {hit} · shared words: {terms}",
    },
    "recalled_item": {
        "ko": "{turn}턴 · 관련도 {score} · 일치한 낱말: {terms}",
        "en": "Turn {turn} · relevance {score} · matched words: {terms}",
    },
    "probe": {"ko": "이 질문을 보내면?", "en": "What if I asked…"},
    "probe_help": {
        "ko": "질문을 입력하면 회상될 이전 대화까지 포함한 컨텍스트를 보여줍니다. 보내지는 않습니다.",
        "en": "Type a question to see the context it would get, recalled turns included. Nothing is sent.",
    },
    "regenerate": {"ko": "🔄 다시 생성", "en": "🔄 Regenerate"},
    "regenerate_help": {
        "ko": "이 메시지를 다시 보내 이 턴의 새 버전을 만듭니다. 이전 버전은 ◀ ▶로 다시 볼 수 있습니다.",
        "en": "Sends this message again as a new version of the turn; ◀ ▶ switch back to the earlier ones.",
    },
    "edit_resend": {"ko": "✏️ 수정해서 다시 보내기", "en": "✏️ Edit and resend"},
    "edit_send": {"ko": "보내기", "en": "Send"},
    "edit_send_help": {
        "ko": "고친 메시지로 이 턴의 새 버전을 만듭니다. 이 턴 뒤의 대화는 새 버전에서 비어 있고, 이전 버전에 그대로 남습니다.",
        "en": "Makes a new version of this turn with the edited message; the turns after it stay in the earlier version.",
    },
    "version_prev": {"ko": "이전 버전", "en": "Previous version"},
    "version_next": {"ko": "다음 버전", "en": "Next version"},
    "version_of": {"ko": "{shown}/{count}", "en": "{shown}/{count}"},
    "version_unsent": {
        "ko": "{n}턴의 이 버전은 아직 답을 받지 못했습니다.",
        "en": "This version of turn {n} has no answer yet.",
    },
    "copy": {"ko": "📋 복사", "en": "📋 Copy"},
    "copy_help": {
        "ko": "오른쪽 위 아이콘으로 답변 전체를 복사합니다.",
        "en": "The icon at the top right copies the whole answer.",
    },
    "fork_title": {"ko": "{title} ({turn}턴에서 갈라냄)", "en": "{title} (fork at turn {turn})"},
    "redo_done": {
        "ko": "{n}턴을 다시 보냈습니다: 버전 {k}/{k}. ◀ ▶로 이전 버전을 볼 수 있습니다.",
        "en": "Sent turn {n} again: version {k}/{k}. ◀ ▶ switch back to the earlier ones.",
    },
    "calls": {
        "ko": "요약·병합 {calls}회 (모델 요청 {requests}회)",
        "en": "{calls} summaries and merges ({requests} model requests)",
    },
}


def known(key: str) -> bool:
    """Whether there is a string `key` (for keys made from data, e.g. a category)."""
    return key in _STRINGS


def t(key: str, lang: str = "ko", **values: Any) -> str:
    """The string `key` in `lang` (falls back to Korean), filled with `values`."""
    entry = _STRINGS[key]
    text = entry.get(lang) or entry["ko"]
    return text.format(**values) if values else text


_ROUTE_REASONS = (
    ("route_reason_tool", re.compile(r"^plain tool request")),
    ("route_reason_recall", re.compile(r"^asks about this conversation")),
    ("route_reason_statement", re.compile(r"^a statement, not a question")),
    (
        "route_reason_match",
        re.compile(r"^document match: (?P<source>\S+) \(confidence (?P<confidence>[\d.]+)\)"),
    ),
    ("route_reason_together", re.compile(r"^document match: (?P<sources>.+) \(together\)")),
    ("route_reason_rules", re.compile(r"^asks about company rules")),
    ("route_reason_none", re.compile(r"^small talk or general question")),
    ("route_reason_greeting", re.compile(r"^plain greeting")),
)


def route_reason(reason: str, lang: str) -> str:
    """The router's reason in `lang`.

    The offline rule's reasons are translated; a model's own words are shown as written.
    """
    for key, pattern in _ROUTE_REASONS:
        match = pattern.match(reason)
        if match:
            return t(key, lang, **match.groupdict())
    return reason
