"""What every node factory returns: a plain function `state -> dict` of the keys it changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Node = Callable[..., dict[str, Any]]
