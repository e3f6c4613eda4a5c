"""The keymap: every action a key can do, in play, the menus and the editor, and its keys.

One table, :data:`ACTIONS`: an action's name, its default keys (pygame key
names; ``ctrl+`` and ``shift+`` make a chord), what it does (the keys
screen's line), and where it is read (:data:`GAME`: play, the menus and the
editor alike, and rebound on the keys screen, saved with the progress;
:data:`EDITOR`: the editor's own, read there before the game's;
:data:`MENU`: the launcher's and the keys screen's, read there before the
game's; :data:`FIELD`: a line of text being typed, read there before the
game's).  To add an action, add its line here, then act on its name in the
scene that uses it.

:class:`Keymap` is the table with the player's bindings in: the loop asks it
once per key event which action the key is (:meth:`Keymap.action`, where
the scene's ``keys`` says), and every key a screen names is written from it
(:meth:`Keymap.label`, :meth:`Keymap.text`), so a rebound key shows as
rebound everywhere.  Esc is always the way back: "back" in play and the
editor, "leave" in a menu, "field_cancel" in a text field.
"""

from __future__ import annotations

import sys
from functools import cached_property
from typing import NamedTuple

GAME = "game"  #: play, the menus and the editor: rebound on the keys screen
EDITOR = "editor"  #: the editor's own keys, read there before the game's
MENU = "menu"  #: the menus' own keys (the launcher, the keys screen), before the game's
FIELD = "field"  #: a text field's keys (a room code, a room's name), before the game's
#: Where a scene's keys are read, and the action Esc always is there.
WHERES = {GAME: "back", EDITOR: "back", MENU: "leave", FIELD: "field_cancel"}


class Action(NamedTuple):
    name: str
    keys: tuple[str, ...]  #: its default keys, pygame key names (a chord: "ctrl+up")
    what: str  #: what it does, in a few words
    where: str = GAME


ACTIONS: tuple[Action, ...] = (
    Action("up", ("up", "w"), "a step up the screen"),
    Action("down", ("down", "s"), "a step down the screen"),
    Action("left", ("left", "a"), "a step to the left on screen"),
    Action("right", ("right", "d"), "a step to the right on screen"),
    Action("turn", ("v", "space"), "the next view: stand, w-up, both"),
    Action("orbit_left", ("q",), "the camera round the player (held)"),
    Action("orbit_right", ("e",), "the camera round the player (held)"),
    Action("undo", ("z", "backspace"), "one state back, as often as you like"),
    Action("restart", ("r",), "back to the start (undo brings the moves back)"),
    Action("back", ("escape",), "to the launcher (Esc always does this too)"),
    Action("copy", ("c",), "the room code to the clipboard"),
    Action("share", ("y",), "after today's room: its share text (it spoils nothing)"),
    Action("screenshot", ("f12",), "the window as drawn, to the screenshots folder"),
    Action("help", ("h", "f1"), "the controls and the rules in a few lines"),
    Action("hint", ("/", "?"),
           "the next move of a shortest solution from here (again: the move after)"),
    Action("fullscreen", ("f11",), "fullscreen and back"),
    Action("new_room", ("n",), "in a made room: a fresh room of the same tier"),
    Action("recipe", ("i",), "in a made room: what it is made of (it gives the puzzle away)"),
    Action("next", ("return", "enter"), "after a win: the next level"),
    Action("mute", ("m",), "the sound off and on again (saved with your progress)"),
    Action("volume_down", ("-", "[-]"), "the sound quieter, a tenth at a time"),
    Action("volume_up", ("=", "[+]"), "the sound louder, a tenth at a time"),
    Action("edit_room", ("f2",),
           "the room being played, opened in the editor (a level's edits: a new room)"),
    # the hook, in hook rooms only: held with an arrow (or tapped, then an arrow), along w
    Action("hook", ("left shift", "right shift"),
           "in a hook room: held with an arrow, the hook flies that way (tapped: ready)"),
    Action("hook_ana", ("t",), "in a hook room: the hook fired ana, along +w"),
    Action("hook_kata", ("g",), "in a hook room: the hook fired kata, along -w"),
    Action("slice_map", ("tab",),
           "the slice map: every w slice side by side, from above (on and off; while it is"
           " large: nearer, and back)"),
    Action("large_map", ("b",),
           "the slice map large, over the room, and back"),
    Action("step_marks", ("x",), "held: what each of the four steps will do, marked on its cell"),
    Action("plan_view", ("p",), "the camera straight down on the room in this view, and back"),
    Action("settings", ("o", "f10"),
           "the settings: sound, the map, the marks, text size, motion, colours"),
    # the editor's own (the game's undo, turn, orbit, copy and back serve it too)
    Action("cursor_x+", ("right",), "the cursor along +x", EDITOR),
    Action("cursor_x-", ("left",), "the cursor along -x", EDITOR),
    Action("cursor_y+", ("down",), "the cursor along +y", EDITOR),
    Action("cursor_y-", ("up",), "the cursor along -y", EDITOR),
    Action("cursor_z+", ("page up",), "the cursor along +z", EDITOR),
    Action("cursor_z-", ("page down",), "the cursor along -z", EDITOR),
    Action("cursor_w+", ("]",), "the cursor along +w", EDITOR),
    Action("cursor_w-", ("[",), "the cursor along -w", EDITOR),
    Action("size_x+", ("ctrl+right",), "the room a cell longer in x", EDITOR),
    Action("size_x-", ("ctrl+left",), "the room a cell shorter in x", EDITOR),
    Action("size_y+", ("ctrl+down",), "the room a cell longer in y", EDITOR),
    Action("size_y-", ("ctrl+up",), "the room a cell shorter in y", EDITOR),
    Action("size_z+", ("ctrl+page up",), "the room a cell taller in z", EDITOR),
    Action("size_z-", ("ctrl+page down",), "the room a cell lower in z", EDITOR),
    Action("size_w+", ("ctrl+]",), "the room a slice more in w", EDITOR),
    Action("size_w-", ("ctrl+[",), "the room a slice less in w", EDITOR),
    *(Action(f"put_{n}", (str(n), f"[{n}]"), f"put cell kind {n}", EDITOR) for n in range(9)),
    Action("put_empty", ("delete",), "empty the cell under the cursor", EDITOR),
    Action("mark", ("space",), "a corner of the box (again: no box)", EDITOR),
    Action("fill", ("f",), "fill the box with the brush", EDITOR),
    Action("clear_box", ("x",), "empty the box", EDITOR),
    Action("redo", ("y", "ctrl+shift+z", "ctrl+shift+backspace"), "an undone edit again",
           EDITOR),
    Action("wrap", ("w",), "w wraps, or not", EDITOR),
    Action("name", ("n",), "type the room's name", EDITOR),
    Action("teaches", ("t",), "type what the room teaches", EDITOR),
    Action("opening_view", ("d",), "the view the room opens in", EDITOR),
    Action("play", ("p", "return", "enter"), "play the room as it stands", EDITOR),
    Action("solution", ("l",), "watch the solver's solution", EDITOR),
    Action("save", ("s",), "save the level file", EDITOR),
    Action("floor_brush", ("9", "[9]"), "the floor brush: a block and what holds you on it",
           EDITOR),
    Action("column_brush", ("k",), "the column brush: blocks from w 0 up to the cursor",
           EDITOR),
    Action("show_code", ("shift+c",), "the room code shown whole, and written to a file",
           EDITOR),
    Action("hook_switch", ("o",), "the room's hook: switch (a hook room or not)", EDITOR),
    # the menus' own (the game's steps move the selection too)
    Action("menu_up", ("up",), "the line above", MENU),
    Action("menu_down", ("down",), "the line below", MENU),
    Action("menu_left", ("left",), "the other column", MENU),
    Action("menu_right", ("right",), "the other column", MENU),
    Action("choose", ("return", "enter", "space"), "open (or rebind) the chosen line", MENU),
    Action("leave", ("escape",), "back (from the launcher: quit)", MENU),
    Action("default", ("delete", "backspace"),
           "the keys screen: the chosen action back to its default keys", MENU),
    *(Action(f"open_{n}", (str(n),), f"the launcher: level {n} of the tutorial", MENU)
      for n in range(1, 10)),
    # a line of text being typed (the characters come as text, not as keys)
    Action("field_done", ("return", "enter"), "keep what is typed", FIELD),
    Action("field_cancel", ("escape",), "close the field, keeping nothing", FIELD),
    Action("field_erase", ("backspace",), "the last character off", FIELD),
    Action("paste", ("ctrl+v",), "the clipboard's text, typed", FIELD),
)

#: The actions a player can rebind, and their default keys (pygame key names).
DEFAULT_KEYS: dict[str, list[str]] = {a.name: list(a.keys) for a in ACTIONS if a.where == GAME}
#: The editor's own actions and their keys.
EDITOR_KEYS: dict[str, tuple[str, ...]] = {a.name: a.keys for a in ACTIONS if a.where == EDITOR}
#: Every action's default keys, and where it is read.
ALL_KEYS: dict[str, tuple[str, ...]] = {a.name: a.keys for a in ACTIONS}
WHERE: dict[str, str] = {a.name: a.where for a in ACTIONS}
#: What each action does.
WHAT: dict[str, str] = {a.name: a.what for a in ACTIONS}

#: Esc always goes back (and Ctrl+Q always quits, in the loop): the keys screen
#: never binds Esc to anything else, so nobody can lock themselves out.
FIXED_KEYS: dict[str, str] = {"back": "escape"}

_SHOWN = {"return": "Enter", "enter": "Keypad Enter", "escape": "Esc", "page up": "PgUp",
          "page down": "PgDn"}


def key_label(name: str) -> str:
    """A pygame key name as the player reads it.

    >>> key_label("z"), key_label("return"), key_label("f12"), key_label("left shift")
    ('Z', 'Enter', 'F12', 'Left Shift')
    """
    if name in _SHOWN:
        return _SHOWN[name]
    return name.upper() if len(name) == 1 else name.title()




def keymap(bindings: dict[str, list[str]]) -> dict[int, str]:
    """Key codes to the game's actions, from saved ``bindings`` (unknown key names are
    skipped, said).  The keypad's Enter is "next" unless bound elsewhere; Esc is "back"."""
    import pygame

    codes: dict[int, str] = {}
    for action, names in bindings.items():
        for name in names:
            try:
                codes.setdefault(pygame.key.key_code(name), action)
            except ValueError:
                print(f"anabasis: warning: unknown key {name!r} for {action}", file=sys.stderr)
    codes.setdefault(pygame.K_KP_ENTER, "next")
    codes[pygame.K_ESCAPE] = "back"  # whatever the file says: nobody is locked in
    return codes


def chord(name: str) -> tuple[str, bool, bool]:
    """``"ctrl+shift+z"`` -> ``("z", True, True)``: the key, and Ctrl and Shift held.

    >>> chord("ctrl+]"), chord("[+]"), chord("page up")
    ((']', True, False), ('[+]', False, False), ('page up', False, False))
    """
    ctrl = shift = False
    while True:
        if name.startswith("ctrl+") and len(name) > 5:
            name, ctrl = name[5:], True
        elif name.startswith("shift+") and len(name) > 6:
            name, shift = name[6:], True
        else:
            return name, ctrl, shift


def chord_label(name: str) -> str:
    """A key or a chord as the player reads it: ``"ctrl+up"`` -> ``"Ctrl+Up"``."""
    key, ctrl, shift = chord(name)
    return ("Ctrl+" if ctrl else "") + ("Shift+" if shift else "") + key_label(key)


class Keymap:
    """The actions with the player's ``bindings`` in: the game's (saved with the progress),
    and any of the editor's, the menus' or a field's given too (else their default keys)."""

    def __init__(self, bindings: dict[str, list[str]]):
        self.bindings = {a: list(n) for a, n in bindings.items()}

    @cached_property
    def codes(self) -> dict[int, str]:
        """Key code -> the game's action (made at the first key: it needs pygame)."""
        return keymap({a: n for a, n in self.bindings.items() if WHERE.get(a, GAME) == GAME})

    @cached_property
    def _tables(self) -> dict[str, dict[tuple[int, bool, bool], str]]:
        """Where -> (key code, Ctrl, Shift) -> the action it is read as there, first."""
        import pygame

        tables: dict[str, dict[tuple[int, bool, bool], str]] = {}
        for where, escape in WHERES.items():
            if where == GAME:
                continue
            found: dict[tuple[int, bool, bool], str] = {}
            for action in (a.name for a in ACTIONS if a.where == where):
                for name in self.keys(action):
                    key, ctrl, shift = chord(name)
                    try:
                        found.setdefault((pygame.key.key_code(key), ctrl, shift), action)
                    except ValueError:
                        print(f"anabasis: warning: unknown key {name!r} for {action}",
                              file=sys.stderr)
            if where != EDITOR:  # Esc is the way back, whatever else is bound
                found[(pygame.K_ESCAPE, False, False)] = escape
            tables[where] = found
        return tables

    def get(self, key: int) -> str | None:
        """The game's action for key code ``key`` (None: none)."""
        return self.codes.get(key)

    def action(self, where: str, event) -> str | None:
        """The action a key event (down or up) is, read where ``where`` says (:data:`GAME`,
        :data:`EDITOR`, :data:`MENU` or :data:`FIELD`: its own keys first, then the game's);
        None for a key that does nothing there."""
        table = self._tables.get(where)
        if table is not None:
            import pygame

            mod = getattr(event, "mod", 0)
            ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
            shift = bool(mod & pygame.KMOD_SHIFT)
            for held in ((ctrl, shift), (ctrl, False), (False, False)):
                found = table.get((event.key, *held))
                if found is not None:
                    return found
        return self.codes.get(event.key)

    def keys(self, action: str) -> list[str]:
        """The keys bound to ``action`` now (pygame key names, chords as written)."""
        if action in self.bindings:
            return list(self.bindings[action] or [])
        if WHERE.get(action, GAME) != GAME:
            return list(ALL_KEYS[action])
        return []

    def label(self, action: str, prefer: str | None = None) -> str:
        """The key to name for ``action`` on screen: ``prefer`` if it is still bound to it,
        else its first key ("" for none)."""
        names = self.keys(action)
        if prefer is not None and prefer in names:
            return chord_label(prefer)
        return chord_label(names[0]) if names else ""

    def text(self, template: str) -> str:
        """``template`` with each ``{action}`` written as its key: ``{undo}`` its first,
        ``{hint:?}`` the ``?`` key while it is bound to it, ``{turn*}`` all of them
        ("V or Space"), ``{arrows}`` the four steps' keys ("arrows" or "arrows / WASD"
        while they are bound).

        >>> Keymap(DEFAULT_KEYS).text("{turn} turn · {undo*}: undo · {hint:?} hint")
        'V turn · Z or Backspace: undo · ? hint'
        """
        out, i = [], 0
        while True:
            j = template.find("{", i)
            if j < 0:
                out.append(template[i:])
                return "".join(out)
            k = template.index("}", j)
            out.append(template[i:j])
            out.append(self._field(template[j + 1:k]))
            i = k + 1

    def _field(self, spec: str) -> str:
        if spec in ("arrows", "arrows+wasd"):
            return self.arrows(wasd=spec == "arrows+wasd")
        if spec == "cursor_arrows":
            return self.arrows(steps=CURSOR_STEPS)
        if spec == "size_arrows":
            return self.size_keys()
        if spec.endswith("*"):
            return " or ".join(chord_label(n) for n in self.keys(spec[:-1]))
        action, _, prefer = spec.partition(":")
        return self.label(action, prefer or None)

    def arrows(self, wasd: bool = False, steps: tuple[str, ...] = ()) -> str:
        """The four steps' keys in a word or two: "arrows" (and "WASD") while they are
        bound so, else their first keys ("I/K/J/L"); ``steps``: four other actions (up,
        down, left, right), the editor's cursor's."""
        arrows = ("up", "down", "left", "right")
        steps = steps or arrows
        if all(a in self.keys(s) for s, a in zip(steps, arrows, strict=True)):
            if wasd and all(k in self.keys(s) for s, k in zip(steps, "wsad", strict=True)):
                return "arrows / WASD"
            return "arrows"
        return "/".join(self.label(s) for s in steps)

    def size_keys(self) -> str:
        """The editor's room-size keys: "Ctrl+cursor keys" while each is Ctrl and the cursor's
        key along its axis, else each one's first key."""
        pairs = [(f"size_{a}{d}", f"cursor_{a}{d}") for a in "xyzw" for d in "+-"]
        if all(self.keys(size)[:1] == ["ctrl+" + k for k in self.keys(cursor)[:1]]
               for size, cursor in pairs):
            return "Ctrl+cursor keys"
        return "/".join(self.label(size) for size, _ in pairs)


#: The editor's cursor along y and x: its four "arrows" (up, down, left, right on screen).
CURSOR_STEPS = ("cursor_y-", "cursor_y+", "cursor_x-", "cursor_x+")


def first_key(bindings: dict[str, list[str]], action: str) -> str:
    """The first key bound to ``action``, as the player reads it ("" for none)."""
    names = bindings.get(action) or []
    return key_label(names[0]) if names else ""
