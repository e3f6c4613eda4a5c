"""The daily board: today's room against everyone's, each run checked by replay.

One idea per module:

- :mod:`~anabasis.board.runs`: what a run is, its bounds, the days that take runs, the replay;
- :mod:`~anabasis.board.days`: the day's room, built from the date;
- :mod:`~anabasis.board.schema`: the tables and their versioned migrations;
- :mod:`~anabasis.board.store`: the database's work (runs, boards, players, rate limits);
- :mod:`~anabasis.board.server`: the HTTP/JSON service (Starlette on uvicorn);
- :mod:`~anabasis.board.client`: what the game needs (token, queue, sender, card, share text).

The server and the store run on Starlette, uvicorn, SQLAlchemy Core and
psycopg; the client needs only the standard library, so the game never
loads the server's stack.  See ``docs/board.md``.
"""

#: The API's version: every path starts ``/v1/`` and every answer says it.
API_VERSION = 1
#: The header every answer carries with :data:`API_VERSION`.
API_HEADER = "Anabasis-Board-Api"
#: Where ``anabasis serve`` listens, and where the "local" board setting looks.
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
