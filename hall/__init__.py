"""The tournament hall: every table of a contest live in one place, nothing lost.

Two halves that meet only through NATS JetStream:

- the **table side** (``publisher``): a board's own nats-server, a leaf node of
  the hall's, keeps a file-backed stream of the table's game events; every
  event stored by the table referee (SQLite, ``referee.store``) is published
  there with ``Nats-Msg-Id = <table>-<seq>``;
- the **hall side** (``ingest``): the hall's nats-server sources every table's
  stream into one hall stream, and the ingest writes it to PostgreSQL,
  idempotent on ``(table_id, seq)``, committed before the ack.

The tournament itself (``registry``, ``pairings``, ``ranking``, ``matches``)
is pure: it stands on ``referee`` only and knows nothing of engines.
``engines`` starts and stops nats-server and PostgreSQL processes.
"""
