"""The grammar of requests: what a message asks the app to do, read by rule.

The offline engine and the router read a message with it:

- `code_in`: a request with code ("코드: print(1)", "이거 실행해 줘: ...", "print(1) 돌려
  봐", a fenced block, `inline code`): the code, as written. Code is Python that parses
  (it is parsed, never run) and does something (a call, an assignment, a loop, an
  import); a sentence of Korean words is no code, and bare arithmetic is the
  calculator's.
- `wants_code`: a request for code to be written or run with none in it ("파이썬으로 ...
  해줘", "write a script that ..."): the offline engine writes no code and says so.
- `request_kind`: whether a message asks the app for something: information (tell,
  explain, find), new text (write, draft, plan: the offline engine makes none), a note
  (remember this), or an act in the world (pay, send, book, sign). A request is never a statement: it is not "noted", and an act no tool
  here can do is said so.
"""

from __future__ import annotations

import ast
import re
import textwrap
from typing import Literal

from graph.text import is_question, is_request

RequestKind = Literal["info", "compose", "note", "act"]

_FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)```", re.DOTALL | re.I)
_INLINE = re.compile(r"`([^`\n]+)`")
_SEPARATOR = re.compile(r"[:：?？]|\n")
"""Where a request may end and its code begin ("run this: ...", "돌려 줄래? ...")."""
CODE_WORD = re.compile(r"python|파이썬|\bcode\b|코드|script|스크립트|\bpy\b", re.I)
RUN_WORD = re.compile(r"\brun\b|\bexecute\b|실행|돌려|돌리|구동", re.I)
_MEANS = re.compile(
    r"(?:python|파이썬|코드|스크립트|code|script)\s*(?:으로|로|(?:을|를)?\s*(?:써서|사용해|이용해))"
    r"|\b(?:in|with|using)\s+(?:python|code|a script)\b"
    r"|(?:코드|스크립트|프로그램)\S*\s*(?:짜|작성|만들)"
    r"|\bwrite\s+(?:a |some |me a )?(?:python |small )?(?:code|script|program|function)\b",
    re.I,
)
"""Code as the means of a request: "파이썬으로 ...", "코드로 계산해", "in Python",
"write a script"."""

_DOES = (
    ast.Call,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Import,
    ast.ImportFrom,
    ast.For,
    ast.While,
    ast.If,
    ast.FunctionDef,
    ast.ClassDef,
    ast.With,
    ast.Try,
)
"""What makes parsed text code that does something (bare `1 + 2` is arithmetic)."""
_MATH = frozenset("sqrt sin cos tan log log10 exp abs round floor ceil pi e min max pow".split())
"""Names arithmetic uses ("sqrt(16) + 1" is the calculator's, not code)."""


def is_code(text: str) -> bool:
    """Whether `text` is Python code that does something (a call, an assignment, a loop).

    Parsed with `ast.parse`, never run. Its names are ASCII: Korean words only inside
    strings, so a Korean sentence that happens to parse ("확인(해줘)") is no code.
    """
    source = _source(text)
    if not source.strip():
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    if any(not name.isascii() for name in names):
        return False
    arithmetic = len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) and set(names) <= _MATH
    return not arithmetic and any(isinstance(node, _DOES) for node in ast.walk(tree))


def _source(text: str) -> str:
    """Code as written after a request: no blank lines around, no indent on its first line."""
    return textwrap.dedent(text.strip("\n")).lstrip(" \t").rstrip()


def _asks_to_run(words: str) -> bool:
    """Whether the words around some code ask for it to be run (or only name it)."""
    words = words.strip(" \t\n:：`")
    return (
        not words
        or bool(RUN_WORD.search(words) or CODE_WORD.search(words))
        or is_request(words)
        or is_question(words)
    )


def code_in(text: str) -> str | None:
    """The code a message asks to run, as written; None when it holds none.

    A fenced block; an inline `code` span; code after the request (at the first ':', '?'
    or line break whose rest is code); code before it ("print(1) 실행해 봐"); or a
    message that is all code.
    """
    fenced = _FENCE.search(text)
    if fenced and fenced.group(1).strip():
        return fenced.group(1).strip()
    for inline in _INLINE.finditer(text):
        rest = text[: inline.start()] + text[inline.end() :]
        if is_code(inline.group(1)) and _asks_to_run(rest):
            return inline.group(1).strip()
    for mark in _SEPARATOR.finditer(text):
        head, tail = text[: mark.start()], text[mark.end() :]
        if is_code(tail) and _asks_to_run(head):
            return _source(tail)
    words = text.split(" ")
    for cut in range(len(words) - 1, 0, -1):  # the longest head that is code
        head, rest = " ".join(words[:cut]), " ".join(words[cut:])
        # the request starts with a word: "= 2x ..." is the rest of an expression
        if rest[:1].isalpha() and is_code(head) and not is_code(rest) and _asks_to_run(rest):
            return head.strip()
    return text.strip() if is_code(text) else None


def wants_code(text: str) -> bool:
    """A request for code to be written or run that holds no code ("파이썬으로 ... 해줘")."""
    if code_in(text) is not None:
        return False
    lower = text.lower()
    return bool(_MEANS.search(lower) or (RUN_WORD.search(lower) and CODE_WORD.search(lower)))


_KO_REQUEST = re.compile(
    r"(\S+?)\s*(?:줘|줘요|주세요|줄래|줄래요|주실래요|주시겠어요|주십시오|주면\s*좋겠|줄\s*수\s*있)"
)
_KO_ASK_FOR = re.compile(
    r"(\S+?)\s*(?:좀\s*)?(?:부탁해|부탁드립니다|부탁드려요|부탁합니다|바랍니다)"
)
_LIGHT = re.compile(r"^(?:해|하|좀|해서|해다|해봐)$")
"""A light verb ("해 줘"): what is asked is the word before it ("설명 좀 해 줘")."""
_KO_INFO = re.compile(
    r"^(?:알려|알리|말해|말씀|설명|가르쳐|보여|찾아|찾|검색|요약|정리|비교|추천|계산|읽어|"
    r"확인|풀어|짚어|답해|답|소개|안내|정의|예시|봐|들려|골라|나열|분석|조사|도와|"
    r"추려|일러|얘기|이야기|대답|해석|풀이|예측|점검|체크)"
)
"""Verbs of asking for information: tell, explain, find, compare, ..."""
_KO_COMPOSE = re.compile(r"^(?:써|작성|짜|만들|그려|지어|꾸며|다듬|번역|옮겨)")
"""Verbs of asking for new text to be made: write, draft, plan, translate."""
_KO_NOTE = re.compile(r"^(?:기억|메모|적어|저장|잊지|새겨|외워)")
_EN_REQUEST = re.compile(
    r"^\W*(?:please\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?|i\s+(?:want|need|would like)\s+you\s+to\s+)([a-z]+)",
    re.I,
)
_EN_INFO = frozenset(
    "tell explain show list find search look summarize summarise describe give help check compare "
    "recommend suggest calculate compute read define answer say clarify outline walk quote name "
    "count estimate".split()
)
_EN_COMPOSE = frozenset("write draft compose plan create design make generate translate".split())
_EN_NOTE = frozenset("remember note memorize memorise keep save jot".split())


def request_kind(text: str) -> RequestKind | None:
    """What a message asks the app for: info, a note or an act; None when it asks nothing.

    Read from the verb of its request ("이체해 주세요": an act, "알려 줘": information,
    "기억해 줘": a note; "Please book ...", "Could you send ..."). A question ("...야?") asks
    for information; so does a request whose verb is light ("설명 좀 해 줘": the word
    before it).
    """
    stripped = text.strip()
    english = _EN_REQUEST.match(stripped)
    if english:
        verb = english.group(1).lower()
        if verb in _EN_NOTE:
            return "note"
        if verb in _EN_COMPOSE:
            return "compose"
        return "info" if verb in _EN_INFO else "act"
    verb = _korean_verb(stripped)
    if verb is not None:
        if _KO_NOTE.match(verb):
            return "note"
        if _KO_COMPOSE.match(verb):
            return "compose"
        return "info" if _KO_INFO.match(verb) else "act"
    if is_question(stripped) or is_request(stripped):
        return "info"
    return None


def _korean_verb(text: str) -> str | None:
    """The word a Korean request asks with ("이체해" of "이체해 주세요"), or None."""
    found = [*_KO_REQUEST.finditer(text), *_KO_ASK_FOR.finditer(text)]
    if not found:
        return None
    last = max(found, key=lambda m: m.start())
    words = text[: last.start()].split() + [last.group(1)]
    words = [w for w in words if w]
    while len(words) > 1 and _LIGHT.match(words[-1]):
        words.pop()  # "설명 좀 해 줘": the word before the light verb says what is asked
    return words[-1] if words else None
