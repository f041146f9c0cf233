"""Everything the conversation keeps beside the checkpoints, on one database.

- `persistence`: opening the SQLite file (checkpointer + archive), pruning, health checks.
- `archive`: archived turns, per-turn statistics, summary costs and the thread list.
- `checkpointer`: LangGraph's checkpoints, each channel value stored once, and their history.
- `summaries`: every summary and digest, stored once (the state keeps its working set).
- `schema`: the schema version of the file and the upgrades from older versions.
"""
