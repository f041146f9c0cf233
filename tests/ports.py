"""Loopback ports for the servers the tests start, never the same in two test processes.

A port from bind(0), closed and handed to a process that binds it seconds later (a cold
`uvicorn`), could meanwhile be handed to another xdist worker too, whose forked service
bound it first: the test then talked to the other worker's service. Each worker takes its
ports in turn from its own range, below the kernel's ephemeral ports (32768 and up), so no
two test processes pick the same port and no outgoing connection holds one.
"""

from __future__ import annotations

import itertools
import os
import socket

_SPAN = 2_000
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
_BASE = 20_000 + _SPAN * (_WORKER % 6)
_ports = itertools.cycle(range(_BASE, _BASE + _SPAN))


def free_port() -> int:
    """The next port of this test process's range that nothing is bound to now."""
    for _ in range(_SPAN):
        port = next(_ports)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {_BASE}-{_BASE + _SPAN - 1}")
