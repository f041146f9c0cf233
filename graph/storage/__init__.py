"""Everything the conversation keeps, on one database: checkpoints, archive, indexes.

Who may use which module (import-linter's `storage-layers` and `storage-face` contracts in
pyproject.toml; docs/storage.md draws the same, with more of the figures):

    graph.session, graph.nodes, graph.memory, graph.replay, service
        |   import only the face, or this package (DB_ERRORS, the recall index's reads)
        v
    8  persistence ...................................... opens one database
    7  redis_checkpointer | memory_checkpointer | forks
    6  apart | pg_checkpointer | summaries | facts | tool_calls | leases
    5  checkpointer | archive ............................ the face ends here
    4  schema
    3  blocks | recall_index | history_packs .............. formats and indexes
    2  messages
    1  packing
    0  db | zdict | rows .................................. leaves

A module imports only modules of lower layers (`|` separates modules of one layer, which
never import each other). The face, imported from outside: `persistence`, `checkpointer`,
`archive`, `summaries`, `facts`, `tool_calls`, `leases`, `forks`; the rest only
`persistence` and its own layers below reach. Nothing here imports the session, the nodes,
the graph or the replay (`project-layers`); `recall_index` borrows two leaves of text
analysis from above, the tokenizer (`graph.retrieval.tokenize`) and the answer kinds
(`graph.memory.answer_types`), so a turn is indexed with the terms recall searches for.

Why each exists, and the figure that shows it earns its keep (`bench/replay_300.py`, 20
turns of checkpoint history kept, recall on, unless named):

- `persistence`: one database for the checkpoints and the archive, a SQLite file or
  PostgreSQL (DATABASE_URL): the file grows with the transcript, not its square (1.75x
  the transcript's bytes at 300 turns, 1.28x at 1,000; 3.75-3.82x on PostgreSQL at 1,000).
- `checkpointer`, `pg_checkpointer`: LangGraph's savers write every channel into each of a
  turn's 6-7 checkpoints; here a value is stored once per version, compressed (issue 46:
  1.43x the added turns' bytes on held-out LoCoMo against 24-1,900x for the stock savers).
- `redis_checkpointer`, `memory_checkpointer`, `apart`: seed 001's Redis and in-memory
  savers, with what `apart` adds to both in one place (metadata, head, pruning by turns).
- `archive`: a summarized turn leaves the state for a row here, so a turn costs the same
  late as early (turns 290-300 against 10-20: 1.05x; 0.98-1.12x at 1,000).
- `summaries`: each summary and digest stored once; the state keeps only what it uses.
- `facts`, `tool_calls`, `leases`, `forks`: lost-facts records and pins; a tool call runs
  at most once per approval; one writer per thread across processes; a fork's archive
  copied in one transaction.
- `schema`: the file's version (12) and the upgrades of every older one, in place (a
  fixture of each version in tests/fixtures/db/).
- `history_packs`: a finished turn's checkpoints in one zstd row against the turn
  before's: 1.5-2 KB a turn where a pack alone is 6-7 KB; 300 turns 4.06x -> 1.75x,
  1,000 turns 1.90x -> 1.28x (PostgreSQL 8.2-8.7x -> 3.75-3.82x).
- `blocks`: a block of 30 archived turns in one compressed row: the archived messages of
  1,000 turns take 57 KB instead of 232 KB, one row instead of about seventy.
- `recall_index`: search terms of archived turns in plain tables any process reads: about
  1-2 bytes a posting against some 12 for a row per posting, and a query reads one row per
  term, so its cost stays flat (3.10 -> 3.53 ms from 300 to 1,000 archived turns).
- `messages`, `rows`: leaves two modules share instead of importing each other (the
  archive and the recall index; the savers, the packs and the schema).
- `packing`: stored JSON, compressed when that pays; `zdict`: the preset dictionary (a
  150-byte value halves; zstd as small as zlib's best in a fifth of the time); `db`: one
  SQL layer for SQLite and PostgreSQL.
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
