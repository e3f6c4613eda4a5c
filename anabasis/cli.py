"""The ``anabasis`` command: the game, and the engine from the command line.

Exit codes: 0 done, 1 a negative answer (impossible), 2 bad input, with a
one-line message on stderr that says what is wrong and where.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from anabasis.world import SWITCHES, VIEWS, Room


class InputError(Exception):
    """Bad input on the command line: a one-line message, exit code 2."""


def resolve(source: str) -> Room:
    """A SOURCE: a level number, a level file, or a room code."""
    from anabasis import levelfile, levels

    if re.fullmatch(r"[0-9]+", source):
        try:
            return levels.load_level(int(source))
        except IndexError as e:
            raise InputError(str(e)) from None
    path = Path(source)
    if path.suffix == ".txt" or path.exists() or "/" in source:
        try:
            return levelfile.load(path)
        except levelfile.LevelError as e:
            raise InputError(str(e)) from None
    from anabasis import codes

    try:
        return codes.decode(source)
    except codes.CodeError as e:
        raise InputError(f"room code {_short(source)}: {e}") from None


def _short(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def parse_moves(text: str, hook: bool = True) -> list[str]:
    """A move string (``RLDU``, hooks as ``hR``..``hK``) as a list of moves."""
    moves, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch in "RLDU":
            moves.append(ch)
            i += 1
        elif ch == "h" and hook and i + 1 < len(text) and text[i + 1] in "RLDUAK":
            moves.append(text[i : i + 2])
            i += 2
        elif ch in " ,\n\t":
            i += 1
        else:
            raise InputError(f"move {i + 1} of the move string: {ch!r} is not a move "
                             "(R L D U, or a hook hR hL hD hU hA hK)")
    return moves


def cmd_solve(args) -> int:
    from anabasis import solver

    room = resolve(args.source)
    without = _switches(args.without)
    result = solver.solve(room, without=without, hook=args.hook, max_states=args.max_states)
    if result.status == "solved":
        print(f"solution: {len(result.moves)}")
        print(f"moves: {''.join(result.moves)}")
        return 0
    if result.status == "gave-up":
        print(f"gave up: after {result.states} states")
        return 1
    print(f"impossible: {result.states} states searched")
    return 1


def _switches(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    names = [s.strip() for s in text.split(",") if s.strip()]
    for name in names:
        if name not in SWITCHES:
            raise InputError(f"--without: unknown rule {name!r} (known: {', '.join(SWITCHES)})")
    return tuple(names)


def cmd_replay(args) -> int:
    from anabasis import levelfile, rules

    room = resolve(args.source)
    moves = parse_moves(args.moves)
    first = rules.start(room)
    state, status, taken = first.state, first.status, 0
    for move in moves:
        result = rules.step(room, state, move)
        if not result.moved:
            continue
        if result.status == "lost":
            status = "lost"
            taken += 1
            break
        state, status = result.state, result.status
        taken += 1
        if status == "won":
            break
    print(f"status: {status}")
    print(f"moves: {taken}")
    print()
    sys.stdout.write(levelfile.write_map(room, state))
    return 0


def cmd_code(args) -> int:
    from anabasis import codes, levelfile

    try:
        room = levelfile.load(args.file)
    except levelfile.LevelError as e:
        raise InputError(str(e)) from None
    try:
        print(codes.encode(room))
    except ValueError as e:
        raise InputError(f"{args.file}: {e}") from None
    return 0


def cmd_show(args) -> int:
    from anabasis import codes, levelfile

    try:
        room = codes.decode(args.code)
    except codes.CodeError as e:
        raise InputError(f"room code {_short(args.code)}: {e}") from None
    sys.stdout.write(levelfile.write(room))
    return 0


def cmd_render(args) -> int:
    from anabasis import render

    return render.cli_render(args, resolve(args.source))


def cmd_gen(args) -> int:
    from anabasis import gen

    return gen.cli_gen(args)


def cmd_bench(args) -> int:
    from anabasis import bench

    return bench.main(args)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="anabasis",
        description="A climb through a 4D room with two gravities. "
        "With no command, opens the game.")
    p.add_argument("--level", type=int, metavar="N", help="open level N")
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
                   help=f"rules switched off, comma-separated: {','.join(SWITCHES)}")
    s.add_argument("--hook", action="store_true", help="let the solver use the hook too")
    s.add_argument("--max-states", type=int, default=20_000_000, metavar="N",
                   help="give up after this many states")
    s.set_defaults(func=cmd_solve)

    s = sub.add_parser("replay", help="play a move string, print the status and the room")
    s.add_argument("source")
    s.add_argument("moves", help="moves: R L D U (hooks hR hL hD hU hA hK)")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("code", help="a level file to its room code")
    s.add_argument("file")
    s.set_defaults(func=cmd_code)

    s = sub.add_parser("show", help="a room code to a level file")
    s.add_argument("code")
    s.set_defaults(func=cmd_show)

    s = sub.add_parser("render", help="draw a room headless, to a PNG")
    s.add_argument("source")
    s.add_argument("--view", choices=VIEWS, help="the view (default: the room's own)")
    s.add_argument("--toward", choices=VIEWS, help="mid-turn toward this view")
    s.add_argument("--at", type=float, default=0.5, metavar="T", help="how far into the turn")
    s.add_argument("--size", default="1280x720", metavar="WxH")
    s.add_argument("--moves", default="", help="play these moves first")
    s.add_argument("-o", "--output", required=True, metavar="FILE.png")
    s.set_defaults(func=cmd_render)

    s = sub.add_parser("gen", help="build a room from a seed, print its code, moves and proofs")
    s.add_argument("spec", metavar="TIER.SEED", help="easy|medium|hard.SEED, or daily[.YYYY-MM-DD]")
    s.set_defaults(func=cmd_gen)

    s = sub.add_parser("bench", help="the performance figures")
    s.add_argument("--only", metavar="PREFIX", help="only figures whose name starts so")
    s.set_defaults(func=cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if getattr(args, "func", None):
            return args.func(args)
        from anabasis import app

        return app.main(args)
    except InputError as e:
        print(f"anabasis: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
