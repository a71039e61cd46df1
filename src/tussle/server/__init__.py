"""``tussle serve``: a game server that people and programs play on (docs/server.md).

The server is authoritative (every action is checked by the rules), keeps every
event in a database before announcing it (SQLite by default, PostgreSQL by
URL), and sends each seat only what its player may see. Its parts: ``store``
(the database), ``hub`` (the live games), ``service`` (making, joining and
rematching games, the lobby, replays: the domain, without the web framework),
``routes`` (the thin HTTP and WebSocket routers over it), ``models`` (the
request bodies and their bounds), ``app`` (``create_app``, which puts them
together), ``guard`` (the Host, body and rate bounds in front of it),
``limits`` (what one client may ask), ``outbox`` (each connection's messages
out), ``workers`` (the processes that play the computer seats), ``documents``
(the named decks and layouts it offers).
"""

#: The longest a computer seat thinks over one move by default, in seconds (``--move-time``):
#: kept here, in the package's light first module, for the command line's help.
MOVE_TIME = 20.0
