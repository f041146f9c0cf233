"""Everything the conversation keeps beside the checkpoints, on one database.

- `persistence`: opening the SQLite file (checkpointer + archive), pruning, health checks.
- `archive`: archived turns, per-turn statistics, summary costs and the thread list.
- `schema`: the schema version of the file and the upgrades from older versions.
"""
