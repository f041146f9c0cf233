"""Everything the conversation keeps beside the checkpoints, on one database.

Layers, top to bottom. A module below the face imports only modules of a lower layer; the
face's modules build on each other (`summaries` on `archive`, `persistence` on both
savers, ...) and on anything below. Nothing here imports `graph.session`, `graph.nodes`,
`graph.graph` or `graph.replay`. `tests/unit/test_import_graph.py` checks these rules, the
layer of each module and that no import circle exists (at module or function level).

5. The face: what the session, the nodes, the memory strategies and the service import.
   Outside `graph/storage/` only these are imported, or this package itself.
   - `persistence`: opening the database (checkpointer + archive), pruning, health checks.
   - `archive`: archived turns, per-turn statistics, summary costs and the thread list.
   - `checkpointer` (SQLite) and `pg_checkpointer` (PostgreSQL): LangGraph's checkpoints,
     each channel value stored once, and their history.
   - `redis_checkpointer` (CHECKPOINTER=redis) and `memory_checkpointer`
     (CHECKPOINTER=memory): checkpoints kept apart from the database, with what `apart`
     adds to LangGraph's savers there (metadata, history, head, pruning by turns).
   - `summaries`, `facts`, `tool_calls`, `leases`, `forks`: summaries and digests stored once,
     lost-facts records and pins, a tool call's approval, the writer lease of a thread, the
     archive copied into a fork. These build on `archive`.
   - this package: `DB_ERRORS` and the recall index's reads (for `graph.memory.recall`).
4. `schema`: the schema version of the file and the upgrades from older versions (run by
   `Archive` when it opens the file).
3. Formats and indexes: `blocks` (packed blocks of archived turns), `recall_index` (search
   terms of archived turns), `history_packs` (a finished turn's checkpoints in one row,
   shared by both savers).
2. `messages`: a turn's messages as stored (written by `archive`, read by `recall_index`).
1. `packing`: stored JSON, compressed when that pays.
0. Leaves: `db` (connections, dialects, locks), `zdict` (compression), `rows` (the table
   definitions and the checkpoint row both savers and the upgrades share).

`recall_index` also uses two text helpers from outside, `graph.memory.answer_types` and
`graph.retrieval.tokenize`, which import nothing from here.
"""

from graph.storage.db import DB_ERRORS
from graph.storage.recall_index import (
    KIND,
    Postings,
    doc_lengths,
    holds,
    read_postings,
    turns_with,
)

__all__ = [
    "DB_ERRORS",
    "KIND",
    "Postings",
    "doc_lengths",
    "holds",
    "read_postings",
    "turns_with",
]
