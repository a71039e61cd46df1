"""``tussle serve``: a game server that people and programs play on (docs/server.md).

The server is authoritative (every action is checked by the rules), keeps every
event in a database before announcing it (SQLite by default, PostgreSQL by
URL), and sends each seat only what its player may see. Its parts: ``store``
(the database), ``hub`` (the live games), ``app`` (the HTTP and WebSocket API,
``create_app``), ``limits`` (what one client may ask).
"""
