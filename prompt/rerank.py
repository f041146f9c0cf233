"""Seed 003's rerank and sufficiency judgement: one structured call per retrieval step."""

RERANK_SYSTEM = (
    "당신은 사내 문서 검색 결과를 평가합니다. 질문에 답하는 데 쓸모 있는 발췌의 번호를 "
    "좋은 순서로 고르고(쓸모없는 것은 빼고), 고른 발췌만으로 질문에 완전히 답할 수 있는지 "
    "판단하세요. 부족하면 빠진 것을 적고, 가장 좋은 발췌가 더 긴 절의 일부라 나머지가 "
    "필요하면 next_action을 get_section으로, 다른 검색어가 필요하면 search_again으로 하고 "
    "refined_query에 더 나은 검색어를 쓰세요. 충분하면 next_action은 null입니다. "
    "confidence는 발췌가 질문에 답한다고 확신하는 정도(0-1)입니다."
)

RERANK_USER = "질문: {question}\n\n검색 결과:\n{passages}"
