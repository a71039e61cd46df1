"""``tussle serve``: a game server that people and programs play on (docs/server.md).

The server is authoritative (every action is checked by the rules), keeps every
event in a database before announcing it (SQLite by default, PostgreSQL by
URL), and sends each seat only what its player may see. Its parts: ``store``
(the database), ``hub`` (the live games), ``app`` (the HTTP and WebSocket API,
``create_app``), ``guard`` (the Host, body and rate bounds in front of it),
``limits`` (what one client may ask), ``outbox`` (each connection's messages
out), ``workers`` (the processes that play the computer seats), ``documents``
(the named decks and layouts it offers).
"""

#: The longest a computer seat thinks over one move by default, in seconds (``--move-time``):
#: kept here, in the package's light first module, for the command line's help.
MOVE_TIME = 20.0
