"""Prompts of the summarizer: first attempt, one length retry, digests, the memory update.

The retry is a system instruction with the summary as the user's text: a model that
copies its input then copies the summary, never an instruction (a small model copied
the old retry prompt, measured length and all, and it was stored as the summary).
"""

SUMMARY_GENERATOR = """다음은 사용자와 AI 어시스턴트의 대화 {turn_label}입니다.
이 대화를 대화에 쓰인 언어로 요약하세요 (한국어 대화는 한국어로, 영어 대화는 영어로).

규칙:
- 요약 길이는 공백 포함 약 {target_chars}자입니다. 이 길이를 넘기지 마세요.
- 이름, 숫자, 날짜, 금액, 결정 사항은 가능한 한 그대로 남기세요.
- 도구 호출이 있었다면 어떤 도구로 무엇을 알아냈는지 한 구절로 남기세요.
- 요약문만 출력하세요. 머리말이나 따옴표 없이.

대화:
{conversation}"""

SUMMARY_RETRY = """사용자가 주는 글을 같은 언어로, 공백 포함 약 {target_chars}자로 다시 쓰세요.
이름, 숫자, 날짜, 금액은 그대로 두고, 다시 쓴 글만 출력하세요."""

DIGEST_GENERATOR = """다음은 같은 대화의 연속된 구간 요약들입니다 ({turn_label}).
이들을 하나의 상위 요약으로 합치세요.

규칙:
- 길이는 공백 포함 약 {target_chars}자이며 이를 넘기지 마세요.
- 이름, 숫자, 날짜, 금액, 결정 사항을 우선해서 남기세요.
- 요약문만 출력하세요.

구간 요약:
{summaries}"""

MEMORY_UPDATE = """다음은 지금까지의 장기 기억과, 그 뒤에 이어진 대화({turn_label})입니다.
둘을 합쳐 새 장기 기억을 처음부터 다시 쓰고, 새 대화에서 구조화된 정보(entities)를 뽑으세요.

memory 규칙:
- 뒤에 덧붙이지 말고 전체를 다시 씁니다 (이전 기억 + 새 대화 -> 새 기억).
- 최근 대화 우선: 새 대화의 내용이 더 중요합니다.
- 주제 전환: 끝난 이전 주제는 한 줄로 줄이세요.
- 오래된 정보 정리: 더 이상 관련 없는 세부 사항은 과감히 지우세요.
- 이름, 숫자, 날짜, 금액, 결정 사항은 그대로 남기세요.
- 대화에 쓰인 언어로, 20문장 이내, 공백 포함 약 {target_chars}자.

entities 규칙:
- 요약하면 사라지기 쉬운 이름, 숫자, 날짜, 금액, 식별자, 연락처, 선택한 값.
- 각 항목은 key(짧은 이름, 예: provider, budget, 이름, 마감일), value(대화에 나온 그대로), turn(그 값이 나온 턴 번호).
- 같은 key가 여러 번 나오면 가장 나중 값 하나만. 인사, 질문, 추측은 뽑지 마세요. 없으면 빈 목록.

지금까지의 기억:
{memory}

새 대화:
{conversation}"""
