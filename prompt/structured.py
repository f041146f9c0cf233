"""The JSON shape every structured decision (router, rerank, safeguard, entities) asks for.

It goes with the decision's own prompt at every level (see `graph.structured`): json_object
has no schema of its own, and a server that ignores `response_format` answers from the
prompt alone.
"""

STRUCTURED_ANSWER = """다른 말 없이 JSON 객체 하나로만 답하세요 ({schema}):
{shape}
{fields}"""
