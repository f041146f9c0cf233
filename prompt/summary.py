"""Prompts of the summarizer: first attempt, one retry with the measured length, digests."""

SUMMARY_GENERATOR = """다음은 사용자와 AI 어시스턴트의 대화 {turn_label}입니다.
이 대화를 한국어로 요약하세요.

규칙:
- 요약 길이는 공백 포함 약 {target_chars}자입니다. 이 길이를 넘기지 마세요.
- 이름, 숫자, 날짜, 금액, 결정 사항은 가능한 한 그대로 남기세요.
- 도구 호출이 있었다면 어떤 도구로 무엇을 알아냈는지 한 구절로 남기세요.
- 요약문만 출력하세요. 머리말이나 따옴표 없이.

대화:
{conversation}"""

SUMMARY_RETRY = """방금 요약은 {actual_chars}자였지만 목표는 {target_chars}자입니다.
같은 내용을 약 {target_chars}자(공백 포함)로 다시 쓰세요. 요약문만 출력하세요.

방금 요약:
{summary}"""

DIGEST_GENERATOR = """다음은 같은 대화의 연속된 구간 요약들입니다 ({turn_label}).
이들을 하나의 상위 요약으로 합치세요.

규칙:
- 길이는 공백 포함 약 {target_chars}자이며 이를 넘기지 마세요.
- 이름, 숫자, 날짜, 금액, 결정 사항을 우선해서 남기세요.
- 요약문만 출력하세요.

구간 요약:
{summaries}"""
