"""The game: a pygame-ce window with an OpenGL 3.3 core context, the menus, play, the editor.

``anabasis`` (no command) calls :func:`main`.  What it opens is resolved
from the arguments *before* any window opens, so a bad level number, room
code or seed is refused on stderr with exit code 2 and no window flashes.

What is where, a folder per kind of thing (each imports only those before it):

- ``settings/``: ``progress`` (the save file: progress, window, sound, the
  bindings), ``keymap`` (every action of play, the editor, the menus and a text
  field, their default keys, key labels), ``campaign`` (the chapters against the
  progress), ``rooms`` (the player's saved rooms);
- ``shell/``: ``loop`` (:class:`~anabasis.app.shell.loop.Loop`, the frame
  loop and what it serves every scene; the one place a key becomes an action),
  ``scene`` (the protocol a screen keeps), ``window`` (the GL window,
  ``Budget``), ``overlay`` (2D over the frame), ``textfield`` (a line being
  typed), ``sound``, ``assets``, ``workers`` (every thread and process);
- ``viewer/``: ``sight`` (view, turn, camera), ``drawstate`` (the draw state
  and the warm-up), ``camera`` (camera input), ``projection`` (to window
  pixels), ``animation``, ``slicemap``: looking at a room, for play and the editor;
- ``play/``: ``scene`` (:class:`~anabasis.app.play.scene.Play`), ``hud``,
  ``cues``, ``hints``, ``hook``, ``markers``, ``stepmarks``, ``reading`` (the
  slice map, step marks and plan view in play), ``legend``, ``daily_card``,
  ``session`` (what is open), ``proofs`` (what the solver says of a room, off the
  loop), ``explain`` (why impossible, how many shortest solutions);
- ``editor/``: ``scene`` (the editor), ``hud``, ``draft`` (the room edited), ``pick``
  (the cell under the mouse);
- ``menus/``: ``launcher``, ``keys_screen``, ``settings``, ``rooms`` ("make a
  room…"), ``menu`` (what they share);
- ``routes``: :class:`~anabasis.app.routes.App`, the game: which scene
  follows which.

See ``docs/game.md``.
"""

from __future__ import annotations

import os
import re
import sys

from anabasis.refusal import Refusal, shorten

# pygame's greeting would land in front of the demo's "won: ..." line
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class OpenError(Refusal):
    """The arguments name no room the game can open, or a bad window size."""


def parse_size(text: str | None) -> tuple[int, int] | None:
    """``--size WxH`` as a pair, None when not given.

    >>> parse_size("960x540")
    (960, 540)
    """
    if not text:
        return None
    from anabasis.picture.size import SizeError, read_size

    try:
        return read_size(text, (160, 120), (16384, 16384), digits=(2, 5))
    except SizeError as e:
        if e.kind == "form":
            raise OpenError(f"--size {text!r}: write it as WIDTHxHEIGHT, e.g. 1280x720") from None
        raise OpenError(f"--size {text!r}: between 160x120 and 16384x16384") from None


def opened_from_args(args):
    """The room the arguments name (an :class:`~anabasis.app.play.session.Opened`), or None.

    Raises :class:`OpenError` for anything bad, before any window.
    """
    from anabasis.app.play import session

    given = [name for name in ("level", "room", "daily", "gen")
             if getattr(args, name, None) is not None]
    if len(given) > 1:
        raise OpenError(f"open one room at a time: --{given[0]} and --{given[1]} both given")
    if getattr(args, "level", None) is not None:
        try:
            chapter, n = (1, args.level) if isinstance(args.level, int) else args.level
            return session.open_level(n, chapter)
        except Exception as e:  # no such level (IndexError), or a broken level file
            raise OpenError(str(e)) from None
    if getattr(args, "room", None) is not None:
        from anabasis.formats import codes

        try:
            return session.open_code(args.room)
        except codes.CodeError as e:
            where = shorten(args.room.strip())
            raise OpenError(f"room code {where}: {e}" if where else str(e)) from None
    if getattr(args, "gen", None) is not None or getattr(args, "daily", None) is not None:
        from anabasis import gen

        if args.gen is not None:
            spec, kind = args.gen, "gen"
        else:
            if not args.daily.strip():
                raise OpenError("--daily: give a day as YYYY-MM-DD, or nothing for today")
            if args.daily != "today" and not re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}\s*", args.daily):
                raise OpenError(f"--daily {shorten(args.daily)!r}: give a day as YYYY-MM-DD "
                                "(2026-11-29), or nothing for today")
            spec = "daily" if args.daily == "today" else f"daily.{args.daily}"
            kind = "daily"
        try:
            tier, seed = gen.parse_spec(spec)
        except gen.GenError as e:
            raise OpenError(str(e)) from None
        # built here, before the window: a made room takes tens of milliseconds
        return session.opened_made(gen.build(tier, seed), kind)
    return None


def main(args) -> int:
    """Open the game as ``args`` (from :mod:`anabasis.cli`) say; the exit code."""
    opened = opened_from_args(args)
    size = parse_size(getattr(args, "size", None))
    if getattr(args, "demo", False) and opened is None:
        raise OpenError("--demo plays a room: give --level N (or --room, --gen, --daily)")
    from anabasis.app.routes import App
    from anabasis.app.shell.window import GLUnavailable

    try:
        app = App(size=size, opened=opened, demo=getattr(args, "demo", False))
    except GLUnavailable as e:
        print(f"anabasis: {e}", file=sys.stderr)
        return 2
    return app.run()


def edit_target(source: str | None, save: str | None = None):
    """What ``anabasis edit [SOURCE] [--save FILE]`` opens, resolved before any window.

    No SOURCE: a new room.  A level file is saved back to itself; a level
    number or a room code is saved to the data folder's ``rooms`` (a shipped
    level is never overwritten); ``--save FILE`` saves anywhere.  A SOURCE
    that names a ``.txt`` file not there yet starts a new room saved to it.
    """
    from pathlib import Path

    from anabasis.app.editor.draft import Draft
    from anabasis.app.editor.scene import EditTarget
    from anabasis.gen import resolve_source as resolve

    save_to = Path(save) if save else None
    if save_to is not None and save_to.is_dir():
        raise OpenError(f"--save {save}: that is a folder; name a file, e.g. {save}/room.txt")
    if not source:
        return EditTarget(Draft.new(), save_to, "a new room")
    path = Path(source)
    if path.suffix == ".txt" and not path.exists():
        return EditTarget(Draft.new(), save_to or path, path.name)
    room = resolve(source)  # a SourceError (a Refusal) says what is wrong, on stderr
    is_file = not re_digits(source) and path.exists()
    if is_file:
        return EditTarget(Draft.of_room(room), save_to or path, path.name)
    what = f"level {source}" if re_digits(source) else "a shared room"
    return EditTarget(Draft.of_room(room), save_to, what)


def re_digits(text: str) -> bool:
    return re.fullmatch(r"-?[0-9]+", text.strip()) is not None


def edit_main(args) -> int:
    """``anabasis edit``: the editor in the window; the exit code."""
    target = edit_target(getattr(args, "source", None), getattr(args, "save", None))
    size = parse_size(getattr(args, "size", None))
    from anabasis.app.routes import App
    from anabasis.app.shell.window import GLUnavailable

    try:
        app = App(size=size, edit=target)
    except GLUnavailable as e:
        print(f"anabasis: {e}", file=sys.stderr)
        return 2
    return app.run()
