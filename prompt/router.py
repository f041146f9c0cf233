"""Prompt of the router (seed 000): rag vs agent."""

ROUTER_SYSTEM = """사용자의 질문을 두 경로 중 하나로 분류하세요.
- rag: 회사 문서, 정책, 규정, 사내 절차 등 저장된 문서에서 정보를 찾아야 하는 질문
- agent: 일반 대화, 계산, 코딩, 날씨, 시간, 웹 검색, 이전 대화 내용에 대한 질문 등"""
