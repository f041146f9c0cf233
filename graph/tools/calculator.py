"""Arithmetic through an AST allowlist: no eval, no names or attributes outside the list.

Accepted: int/float literals (thousands separators like `1,234` are read as 1234), the
operators + - * / // % ** (also `×`, `÷`, and `^` for power), parentheses, and the
functions and constants in `FUNCTIONS` / `CONSTANTS`. Sizes are bounded before anything is
computed, so `9**9**9` is refused in microseconds instead of hanging.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from graph.tools.base import ToolError

MAX_INPUT = 500
MAX_DEPTH = 50
MAX_NODES = 200
MAX_EXPONENT = 10_000
MAX_INT_BITS = 4_000
MAX_ROUND_DIGITS = 100


def _round(value: Any, ndigits: Any = None) -> Any:
    # int.__round__ with ndigits=-10**9 computes 10**10**9 first: bound it.
    if ndigits is None:
        return round(value)
    if not isinstance(ndigits, int) or abs(ndigits) > MAX_ROUND_DIGITS:
        raise ToolError(f"round() takes a whole number of digits up to {MAX_ROUND_DIGITS}")
    return round(value, ndigits)


def _checked(value: Any) -> Any:
    if isinstance(value, complex):
        raise ToolError("the result is a complex number; only real numbers are supported")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise ToolError("result would be too large")
    return value


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "log": math.log,
    "log10": math.log10,
    "exp": math.exp,
    "abs": abs,
    "round": _round,
    "floor": math.floor,
    "ceil": math.ceil,
}
CONSTANTS = {"pi": math.pi, "e": math.e}
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3})+)(?![\d,])")


def _normalize(expression: str) -> str:
    text = expression.strip().replace("×", "*").replace("÷", "/").replace("^", "**")
    text = _THOUSANDS.sub(lambda m: m.group(1).replace(",", ""), text)
    return text.rstrip("= ?")


def _check_nesting(text: str) -> None:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth > MAX_DEPTH:
            raise ToolError(f"expression is nested deeper than {MAX_DEPTH} levels")


def _bounded_pow(base: Any, exponent: Any) -> Any:
    if isinstance(exponent, int | float) and abs(exponent) > MAX_EXPONENT:
        raise ToolError(f"exponent {exponent} is outside ±{MAX_EXPONENT}")
    if (
        isinstance(base, int)
        and isinstance(exponent, int)
        and exponent > 0
        and base not in (0, 1, -1)
    ):
        if abs(base).bit_length() * exponent > MAX_INT_BITS:
            raise ToolError("result would be too large")
    try:
        return operator.pow(base, exponent)
    except OverflowError as exc:
        raise ToolError("result would be too large") from exc
    except ZeroDivisionError as exc:
        raise ToolError("zero cannot be raised to a negative power") from exc


def _eval(node: ast.AST) -> Any:
    return _checked(_eval_node(node))


def _eval_node(node: ast.AST) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            return _bounded_pow(left, right)
        if isinstance(node.op, ast.Mult) and isinstance(left, int) and isinstance(right, int):
            if left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise ToolError("result would be too large")
        try:
            return _BINARY[type(node.op)](left, right)
        except ZeroDivisionError as exc:
            raise ToolError("division by zero") from exc
        except OverflowError as exc:
            raise ToolError("result would be too large") from exc
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand))
    if isinstance(node, ast.Name) and node.id in CONSTANTS:
        return CONSTANTS[node.id]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in FUNCTIONS
        and not node.keywords
        and 1 <= len(node.args) <= 2
    ):
        args = [_eval(a) for a in node.args]
        try:
            return FUNCTIONS[node.func.id](*args)
        except (ValueError, OverflowError, TypeError) as exc:
            raise ToolError(f"{node.func.id}: {exc}") from exc
    if isinstance(node, ast.Call):
        allowed = ", ".join(FUNCTIONS)
        raise ToolError(f"only these functions may be called, with 1 or 2 numbers: {allowed}")
    if isinstance(node, ast.Name):
        raise ToolError(f"unknown name {node.id!r}; allowed: {', '.join([*FUNCTIONS, *CONSTANTS])}")
    raise ToolError(f"{type(node).__name__} is not allowed in an arithmetic expression")


def calculate(expression: str) -> str:
    """Evaluate arithmetic safely and return the result as text."""
    if len(expression) > MAX_INPUT:
        raise ToolError(f"expression is longer than {MAX_INPUT} characters")
    text = _normalize(expression)
    if not text:
        raise ToolError("empty expression")
    if "__" in text or "lambda" in text:
        raise ToolError("only arithmetic is allowed")
    _check_nesting(text)
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise ToolError(f"invalid syntax in {expression!r}") from exc
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ToolError(f"expression has more than {MAX_NODES} parts")
    value = _eval(tree)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ToolError("result is not a finite number")
        return f"{value:.12g}"
    return str(value)
