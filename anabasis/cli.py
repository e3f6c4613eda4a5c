"""The ``anabasis`` command: the game, and the engine from the command line.

Exit codes: 0 done, 1 a negative answer (``impossible``, ``lost: undo K``),
2 bad input, or output that cannot be written (a full disk, a closed pipe),
with a one-line message on stderr that says what is wrong and where, never a
traceback; 3 when ``solve`` or ``hint`` gave up at its state cap (no answer
either way); 130 when stopped by Ctrl-C (at any moment: see ``anabasis.__main__``).

Every message is one line: control characters in it (a newline or an
escape in a SOURCE) are written as escapes, input longer than
:data:`LONG_INPUT` characters is quoted cut short (by
:func:`anabasis.refusal.shorten`, as every layer cuts what it quotes), and
output that the terminal's encoding cannot show is written as escapes too,
never a crash.  Every command's output goes through :func:`main`'s guard:
a write that fails is one line and exit code 2, whatever the command.
"""

from __future__ import annotations

import argparse
import errno
import os
import stat
import sys

from anabasis.engine.moves import HOOKS, STEPS, parse_moves
from anabasis.engine.world import NEEDS, VIEWS
from anabasis.formats import levelfile
from anabasis.refusal import Refusal, shorten


class InputError(Refusal):
    """Bad input on the command line itself (a flag, a SOURCE): exit code 2."""


#: Exit codes.
DONE, NEGATIVE, BAD_INPUT, GAVE_UP, INTERRUPTED = 0, 1, 2, 3, 130
#: The most move-string text ``replay`` reads from a file or stdin (some 8 million moves).
MAX_MOVES_BYTES = 8 << 20
#: Input longer than this is quoted in a message cut short (shorter input is quoted whole:
#: a path or a code is never this long).
LONG_INPUT = 200

#: What was given on the command line, for :func:`say` to cut short where a message quotes it.
_given: list[str] = []


class OutputFault(Exception):
    """Writing the output failed (``> /dev/full``, a pipe whose reader went away)."""

    def __init__(self, error: OSError):
        self.error = error
        super().__init__(error)

    def message(self) -> str:
        if isinstance(self.error, BrokenPipeError):
            return "cannot write the output: the pipe was closed before it was all written"
        return f"cannot write the output: {self.error.strerror or self.error}"


class _Guarded:
    """A text stream whose failed writes raise :class:`OutputFault` (the rest is the stream's)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as e:
            raise OutputFault(e) from None

    def flush(self):
        try:
            return self._stream.flush()
        except OSError as e:
            raise OutputFault(e) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def resolve(source: str):
    """The room a SOURCE names: a level, a level file, a room code, and a made room's name
    (``hard.k3x9``, ``daily``), as the game's code box takes it
    (:func:`anabasis.gen.resolve_source`; the generator imported here, when a command
    reads a room, not for every command)."""
    from anabasis.gen import resolve_source

    return resolve_source(source)


def one_line(text: str) -> str:
    """``text`` with every control character escaped, so a message stays one line
    and nothing in it reaches the terminal as a command.

    >>> print(one_line("levels/a\\nb\\x1b[2J.txt: cannot read"))
    levels/a\\nb\\x1b[2J.txt: cannot read
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def cut_inputs(message: str, given=None) -> str:
    """``message`` with every long piece of input in it cut short by :func:`shorten`.

    A piece is an argument as given, what follows its first ``@``, ``=`` or
    ``.`` (a file after ``@``, a value after ``--flag=``, a seed after the
    tier) and each of its comma-separated parts; one longer than
    :data:`LONG_INPUT` is quoted as ``shorten`` cuts it, as every layer
    quotes input.

    >>> cut_inputs("gen: seed '" + "z" * 300 + "' is not base 36", ["hard." + "z" * 300])
    "gen: seed 'zzzzzzzzzzzzzzzzzzzzzzz…' is not base 36"
    """
    pieces = set()
    for arg in _given if given is None else given:
        if len(arg) <= LONG_INPUT:
            continue
        pieces.add(arg)
        for sep in "@=.":
            head, found, rest = arg.partition(sep)
            if found:
                pieces.add(rest)
        pieces.update(part.strip() for part in arg.split(","))
    for piece in sorted((p for p in pieces if len(p) > LONG_INPUT), key=len, reverse=True):
        for form in (repr(piece), piece):
            if form in message:
                message = message.replace(form, repr(shorten(piece)) if form != piece
                                          else shorten(piece))
    return message


def say(message: str) -> None:
    """One line on stderr: ``anabasis: message`` (nothing when stderr cannot be written)."""
    try:
        print(f"anabasis: {one_line(cut_inputs(message))}", file=sys.stderr, flush=True)
    except OSError:
        pass


def _states(n: int) -> str:
    return "1 state" if n == 1 else f"{n} states"


def cmd_solve(args) -> int:
    from anabasis.engine import proofs

    room = resolve(args.source)
    without = _switches(args.without)
    if args.max_states is not None and args.max_states < 1:
        raise InputError(f"--max-states: {args.max_states} is not 1 or more")
    if "hook" in without and not room.hook:
        raise InputError("--without hook: this is not a hook room (no 'hook: yes'): "
                         "the hook is no move here to switch off")
    if "hook" in without and args.hook:
        raise InputError("--hook and --without hook: give one or the other")
    # a hook room's par has the hook in it; --hook adds it in any room
    result = proofs.without(room, without, max_states=args.max_states,
                            hook=True if args.hook else None)
    if result.status == "solved":
        print(f"solution: {len(result.moves)}")
        print(f"moves: {''.join(result.moves)}".rstrip())  # no trailing space for 0 moves
        return DONE
    if result.status == "gave-up":
        print(f"gave up: {_states(result.states)} searched")
        return GAVE_UP
    print(f"impossible: {_states(result.states)} searched")
    return NEGATIVE


def cmd_hint(args) -> int:
    from anabasis.engine import rules, solver

    room = resolve(args.source)
    moves = parse_moves(_moves_text(args.moves))
    if args.max_states < 1:
        raise InputError(f"--max-states: {args.max_states} is not 1 or more")
    # played as the game plays them (with the hook, as replay takes it); a
    # losing move stops the string, as in replay, and is not applied
    game = rules.Game(room, hook=True)
    for move in moves:
        if game.status != "playing" or game.play(move).status == "lost":
            break
    # the way on takes the hook where the room has it (a hook room), as its par does
    way = solver.way_on(room, game.state, game.history, max_states=args.max_states)
    if way.status == "won":
        print("won")
        return DONE
    if way.status == "solvable":
        print(f"next: {way.moves[0]}")
        print(f"moves: {''.join(way.moves)}")
        return DONE
    if way.status == "too-big":
        print(f"too big to tell: over {_states(args.max_states)}")
        return GAVE_UP
    if way.undo is None:
        print(f"impossible: {_states(way.states)} searched")
    else:
        print(f"lost: undo {way.undo}")
    return NEGATIVE


def _switches(text: str | None) -> tuple[str, ...]:
    """``--without``'s rules, read as a level's ``needs:`` line is.

    Spaces round a name are fine; an empty or unknown name is refused, and
    an empty ``--without ''`` switches nothing off.
    """
    if not text:
        return ()
    names = [s.strip() for s in text.split(",")]
    for name in names:
        if name not in NEEDS:
            what = f"unknown rule {name!r}" if name else f"an empty rule name in {text!r}"
            raise InputError(f"--without: {what} (known: {', '.join(NEEDS)})")
    return tuple(dict.fromkeys(names))


def cmd_replay(args) -> int:
    from anabasis.engine import rules

    room = resolve(args.source)
    moves = parse_moves(_moves_text(args.moves))
    played = rules.replay(room, moves)
    print(f"status: {played.status}")
    print(f"moves: {played.moves}")
    print()
    sys.stdout.write(levelfile.write_map(room, played.state))
    return DONE


def _moves_text(given: str) -> str:
    """MOVES as given: the moves, ``-`` for stdin, or ``@FILE`` for a file's text."""
    from anabasis.formats.files import FileRefusal, read_bounded

    if given == "-":
        raw = sys.stdin.buffer.read(MAX_MOVES_BYTES + 1)
        where = "stdin"
        if len(raw) > MAX_MOVES_BYTES:
            raise InputError(f"stdin: more than {MAX_MOVES_BYTES >> 20} MiB of moves")
    elif given.startswith("@"):
        where = given[1:]
        if not where:
            raise InputError("@: name the file of moves after the @ (@moves.txt), "
                             "or give - to read them from stdin")
        try:
            raw = read_bounded(where, MAX_MOVES_BYTES, "a move string")
        except FileRefusal as e:
            raise InputError(str(e)) from None
    else:
        return given
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"{where}: not UTF-8 text (byte 0x{raw[e.start]:02x} at offset "
                         f"{e.start})") from None
    # line breaks and tabs separate moves, as spaces and commas do
    return text.translate({ord(c): " " for c in "\r\n\t"})


def cmd_code(args) -> int:
    from anabasis.formats import codes

    room = resolve(args.file)
    try:
        print(codes.encode(room, named=args.named))
    except ValueError as e:
        raise InputError(f"{args.file}: {e}") from None
    return DONE


def cmd_show(args) -> int:
    room = resolve(args.code)
    sys.stdout.write(levelfile.write(room))
    return DONE


def cmd_render(args) -> int:
    from anabasis.engine import rules
    from anabasis.picture import render

    room = resolve(args.source)
    try:
        size = render.parse_size(args.size)
    except ValueError as e:
        raise InputError(str(e)) from None
    _check_output(args.output)  # before the drawing, which takes a while
    state = rules.replay(room, parse_moves(args.moves or "", hook=room.hook)).state
    if args.map:  # the slice map: drawn with pygame, no GL
        from anabasis.app.viewer import slicemap

        rgb = slicemap.image(room, state, size)
        try:
            _write_png(args.output, rgb)
        except OSError as e:
            raise InputError(f"cannot write {args.output}: {e.strerror or e}") from None
        return DONE
    try:
        rgb = render.render_image(room, state, args.view or room.view, args.toward, args.at, size)
    except render.NoGLError as e:
        say(f"render: {e}; try LIBGL_ALWAYS_SOFTWARE=1, or install Mesa's EGL "
            "(libegl-mesa0, libgl1-mesa-dri)")
        return BAD_INPUT
    try:
        _write_png(args.output, rgb)
    except OSError as e:
        raise InputError(f"cannot write {args.output}: {e.strerror or e}") from None
    return DONE


def _check_output(path: str) -> None:
    """Refuse an ``-o`` that ``render`` cannot honour: no name, a name that says another
    format than PNG, a folder or a socket.  A device is written (``/dev/full`` fails
    in one line), and so is a FIFO that something reads (see :func:`_write_png`)."""
    if not path.strip():
        raise InputError("-o: give the PNG file to write, e.g. -o room.png")
    ext = os.path.splitext(path)[1]
    if ext and ext.lower() != ".png":
        raise InputError(f"-o {path}: render writes PNG only; give a name that ends in .png")
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # not there yet (or a name the write will refuse)
        return
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"-o {path}: that is a folder; name a file, e.g. {path.rstrip('/')}"
                         "/room.png")
    if stat.S_ISSOCK(st.st_mode):
        raise InputError(f"-o {path}: a socket; render writes a file")


def _write_png(path: str, rgb) -> None:
    """The PNG to ``path``; to a FIFO (``-o /dev/stdout`` into a pipe) only if something
    reads it already: one that nothing reads is refused at once, never waited on."""
    import tempfile

    from anabasis.picture import render

    try:
        is_fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        is_fifo = False
    if not is_fifo:
        render.write_png(path, rgb)
        return
    try:  # without blocking: with no reader the open fails at once (ENXIO)
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise InputError(f"-o {path}: a FIFO that nothing reads; render would wait "
                             "for a reader for ever") from None
        raise
    try:
        with tempfile.TemporaryDirectory() as folder:
            made = os.path.join(folder, "render.png")
            render.write_png(made, rgb)
            with open(made, "rb") as f:
                data = memoryview(f.read())
        os.set_blocking(fd, True)
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)


def cmd_gen(args) -> int:
    from anabasis import gen
    from anabasis.formats import codes

    try:
        made = gen.build(*gen.parse_spec(args.spec))
    except gen.GenError as e:
        raise InputError(f"gen: {e}") from None
    print(f"code: {codes.encode(made.room)}")
    print(f"solution: {len(made.moves)}")
    print(f"moves: {''.join(made.moves)}")
    print(f"ramps: {made.ramps}")
    print(f"slips: {made.slips}")
    print(f"pushes: {made.pushes}")
    print(f"proofs: {', '.join('without ' + p for p in made.proofs)}")
    d = made.depth
    print(f"climb: {d.climb} (every shortest solution takes {d.min_ramps} ramps up)")
    print(f"states: {d.states} ({d.dead} dead)")
    print(f"forks: {d.forks}")
    print(f"box lines: {d.lines}")
    print(f"box changes: {d.changes}")
    print(f"score: {d.score:.1f}")
    print(f"about: {made.subtitle}")
    print(f"recipe: {made.recipe}")  # what it asks (a spoiler: the game shows it on request)
    return DONE


def cmd_edit(args) -> int:
    from anabasis import app

    return app.edit_main(args)


def cmd_bench(args) -> int:
    from anabasis import bench

    return bench.main(args)


def cmd_serve(args) -> int:
    from anabasis.board import server
    from anabasis.board.store import StoreError

    for flag, value in (("--port", args.port), ("--workers", args.workers),
                        ("--per-token", args.per_token), ("--per-address", args.per_address)):
        if value < (0 if flag == "--port" else 1):
            raise InputError(f"{flag}: {value} is too small")
    try:
        server.serve(args.db, args.host, args.port, workers=args.workers,
                     timeout=args.db_timeout, per_token=args.per_token,
                     per_address=args.per_address, proxies=args.proxies)
    except StoreError as e:
        raise InputError(str(e)) from None
    except Exception as e:  # the database refused us at start: say so in one line
        import sqlalchemy.exc

        if isinstance(e, sqlalchemy.exc.SQLAlchemyError):
            say(f"serve: the database is not answering: {str(e).splitlines()[0]}")
            return BAD_INPUT
        raise
    return DONE


def cmd_board(args) -> int:
    from anabasis.board import client

    try:
        url = client.board_url(args.url or os.environ.get("ANABASIS_BOARD") or "local")
        date = client.parse_day(args.date)
    except client.BoardError as e:
        raise InputError(str(e)) from None
    if url is None:
        raise InputError("board: no board set (give --url URL, or 'local')")
    board = client.BoardClient(url)
    try:
        day = board.day(date)
    except client.BoardError as e:
        say(f"board: {url}: {e}")
        return NEGATIVE if e.status == 404 else BAD_INPUT
    mine = None
    token = client.read_token(client.default_save_dir())
    if token:
        try:
            mine = board.me(date, token)
        except client.BoardError:
            mine = None
    for line in client.board_lines(day, mine):
        print(one_line(line))
    return DONE


def _fraction(text: str) -> float:
    """A number from 0 to 1 (argparse turns the ValueError into a one-line refusal)."""
    value = float(text)
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise ValueError(text)
    return value


_fraction.__name__ = "number from 0 to 1"


def _hint_cap() -> int:
    from anabasis.engine import solver

    return solver.HINT_MAX_STATES


def _solve_cap() -> int:
    from anabasis.engine import solver

    return solver.DEFAULT_MAX_STATES


class _Version(argparse.Action):
    """``--version``: the version, on stdout (through :func:`main`'s guard), then exit 0."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kw):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        from anabasis import __version__

        print(f"anabasis {__version__}")
        parser.exit(0)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {one_line(cut_inputs(message))} (see --help)\n")

    def _print_message(self, message, file=None):
        try:
            super()._print_message(message, file)
        except OutputFault:
            raise
        except OSError:  # stderr itself cannot be written: nothing to say it on
            pass


def _level_name(text: str) -> tuple[int, int]:
    """``--level``'s value: ``3`` (chapter 1's level 3) or ``2.4``, as (chapter, level)."""
    from anabasis.formats import levels

    number = levels.parse_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(
            f"{shorten(text)!r} is not a level: write N (chapter 1) or C.N, like 3 or 2.4")
    return number


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="anabasis",
        description="A climb through a 4D room with two gravities. "
        "With no command, opens the game.")
    p.add_argument("--version", action=_Version, help="print the version and exit")
    p.add_argument("--level", type=_level_name, metavar="N",
                   help="open level N (chapter 1's), or C.N (chapter C's level N)")
    p.add_argument("--room", metavar="CODE", help="open the room with this code")
    p.add_argument("--daily", nargs="?", const="today", metavar="YYYY-MM-DD",
                   help="open today's room (or that day's)")
    p.add_argument("--gen", metavar="TIER.SEED", help="open the generator's room for that seed")
    p.add_argument("--demo", action="store_true",
                   help="play the room's shortest solution in the window, then exit")
    p.add_argument("--size", metavar="WxH", help="window size")
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("solve", help="shortest solution, or prove there is none")
    s.add_argument("source", help="a level number, a level file, or a room code")
    s.add_argument("--without", metavar="RULES",
                   help=f"rules switched off, comma-separated: {','.join(NEEDS)} "
                        "(hook: in a hook room only)")
    s.add_argument("--hook", action="store_true",
                   help="let the solver use the hook too (a hook room always has it)")
    s.add_argument("--max-states", type=int, default=None, metavar="N",
                   help=f"give up after reaching this many states (default: {_solve_cap():,}; "
                   "a crowded room can take some 1.4 GB and half a minute to reach it)")
    s.set_defaults(func=cmd_solve)

    s = sub.add_parser("replay", help="play a move string, print the status and the room")
    s.add_argument("source", help="a level number, a level file, or a room code")
    s.add_argument("moves", help=f"moves: {' '.join(STEPS)} (hooks {' '.join(HOOKS)}); "
                   "- reads them from stdin, @FILE from a file")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("hint", help="the next move of a shortest solution from a position, "
                       "or how far to undo")
    s.add_argument("source", help="a level number, a level file, or a room code")
    s.add_argument("moves", nargs="?", default="",
                   help=f"moves played first: {' '.join(STEPS)} (hooks {' '.join(HOOKS)})")
    s.add_argument("--max-states", type=int, default=_hint_cap(), metavar="N",
                   help="say 'too big to tell' past this many states (default: %(default)s)")
    s.set_defaults(func=cmd_hint)

    s = sub.add_parser("code", help="a level file (or level number) to its room code")
    s.add_argument("file", metavar="FILE", help="a level file, or a level number")
    s.add_argument("--named", action="store_true",
                   help="the code carries the level's name and teaches line too")
    s.set_defaults(func=cmd_code)

    s = sub.add_parser("show", help="a room code to a level file")
    s.add_argument("code", metavar="CODE", help="a room code (or a level number or file)")
    s.set_defaults(func=cmd_show)

    s = sub.add_parser("render", help="draw a room headless, to a PNG")
    s.add_argument("source")
    s.add_argument("--view", choices=VIEWS, help="the view (default: the room's own)")
    s.add_argument("--toward", choices=VIEWS, help="mid-turn toward this view")
    s.add_argument("--at", type=_fraction, default=0.5, metavar="T",
                   help="how far into the turn, 0 to 1")
    s.add_argument("--size", default="1280x720", metavar="WxH",
                   help="the picture's size, 1x1 to 8192x8192 (default: %(default)s)")
    s.add_argument("--moves", default="", help="play these moves first")
    s.add_argument("--map", action="store_true",
                   help="draw the slice map (every w slice side by side, from above), "
                        "fitting --size")
    s.add_argument("-o", "--output", required=True, metavar="FILE.png",
                   help="the PNG to write (a device such as /dev/stdout is written too)")
    s.set_defaults(func=cmd_render)

    s = sub.add_parser("gen", help="build a room from a seed, print its code, moves and proofs")
    s.add_argument("spec", metavar="TIER.SEED", help="easy|medium|hard.SEED, or daily[.YYYY-MM-DD]")
    s.set_defaults(func=cmd_gen)

    s = sub.add_parser("edit", help="the room editor, with live proofs")
    s.add_argument("source", nargs="?", metavar="SOURCE",
                   help="a level number, a level file or a room code (none: a new room; "
                        "a .txt file not there yet: a new room saved to it)")
    s.add_argument("--save", metavar="FILE",
                   help="save to FILE (default: back to a level file; else the data folder)")
    s.set_defaults(func=cmd_edit)

    s = sub.add_parser("serve", help="the daily board's server (HTTP/JSON)")
    s.add_argument("--db", metavar="URL",
                   help="postgresql://..., sqlite:///FILE or a file (default: board.sqlite3 "
                        "in the data folder)")
    s.add_argument("--host", default="127.0.0.1", metavar="H", help="default: %(default)s")
    s.add_argument("--port", type=int, default=8765, metavar="P", help="default: %(default)s")
    s.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes (default: %(default)s)")
    s.add_argument("--db-timeout", type=float, default=5.0, metavar="S",
                   help="seconds to wait for the database (default: %(default)s)")
    s.add_argument("--per-token", type=int, default=30, metavar="N",
                   help="runs a player may send a minute (default: %(default)s)")
    s.add_argument("--per-address", type=int, default=120, metavar="N",
                   help="runs an address may send a minute (default: %(default)s)")
    s.add_argument("--proxies", metavar="IPS",
                   help="load balancers whose X-Forwarded-For is believed (comma-separated)")
    s.set_defaults(func=cmd_serve)

    s = sub.add_parser("board", help="a day's board, printed (from a board server)")
    s.add_argument("date", nargs="?", default="today", metavar="DATE",
                   help="YYYY-MM-DD (default: today, UTC)")
    s.add_argument("--url", metavar="URL",
                   help="the board (default: $ANABASIS_BOARD, else the local one)")
    s.set_defaults(func=cmd_board)

    s = sub.add_parser("bench", help="the performance figures")
    s.add_argument("--only", metavar="PREFIX", help="only figures whose name starts so")
    s.set_defaults(func=cmd_bench)
    return p


def _no_game_flags(args) -> None:
    """Refuse a flag that opens the game given with a command, which would ignore it."""
    given = [name for name in ("level", "room", "daily", "gen")
             if getattr(args, name) is not None] + ["demo"] * args.demo
    if given:
        raise InputError(f"--{given[0]} opens the game; it does not go with "
                         f"'{args.command}' (give it alone, or the command alone)")


def _forgiving_output() -> None:
    """Text the terminal's encoding cannot show is written as escapes, not a crash
    (``PYTHONIOENCODING=ascii`` and a level named in another script)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):  # not a text file we can set
            pass


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); the exit code.

    Everything a command writes to stdout, ``--help`` and ``--version``
    included, goes through a guard: when a write fails (``> /dev/full``,
    a pipe whose reader went away) the command stops, one line on stderr
    says so, and the exit code is 2, whatever the command was.
    """
    _forgiving_output()
    _given[:] = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    sys.stdout = _Guarded(out)
    try:
        try:
            return _run(argv)
        except SystemExit:  # --help, --version, a usage error: their output is flushed here
            sys.stdout.flush()
            raise
    except OutputFault as e:
        _quiet_stdout(out)
        say(e.message())
        return BAD_INPUT
    except KeyboardInterrupt:
        return INTERRUPTED
    finally:
        if sys.stdout.__class__ is _Guarded:
            sys.stdout = out


def _run(argv) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if getattr(args, "func", None):
            _no_game_flags(args)
            code = args.func(args)
        else:
            from anabasis import app

            code = app.main(args)
        sys.stdout.flush()  # a full disk shows on the flush: here, not at the interpreter's exit
        return code
    except Refusal as e:
        sys.stdout.flush()
        say(str(e))
        return BAD_INPUT


def _quiet_stdout(stream) -> None:
    """Drop what is left of the output, so that the interpreter's last flush (which would
    fail again, on stderr) has nothing to write."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass
