"""Prompt of the supervisor's intent and plan (seed 004): one structured decision."""

SUPERVISOR_PLAN = """사용자의 메시지를 이해하고 답할 계획을 세우세요.
- goal: 사용자가 원하는 것 한 문장
- parts: 메시지가 묻는 것들 (한 가지만 물으면 하나)
- category: contract (계약서·조항), payment (결제·송금), sensitive (민감한 개인정보), general (그 밖)
- steps: 답에 필요한 단계, 최대 {limit}개. 단계마다 agent 하나와 그 단계가 답할 질문:
  documents (회사 문서·정책·규정), contract (계약서와 그 조항), web (웹 검색, 위키백과, 날씨),
  code (파이썬 코드 실행), data (계산, 파일 읽기, 현재 날짜·시각),
  general (일반 대화, 이전 대화 내용에 대한 질문)
한 가지를 묻는 메시지는 한 단계입니다."""
