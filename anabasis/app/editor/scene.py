"""The room editor: build a room cell by cell, see it proved as you go, play it, share it.

A scene like the others (:class:`~anabasis.app.shell.scene.Scene`).  Its state, in
Tatham's three kinds:

- **what undo brings back**: the :class:`~anabasis.app.editor.draft.Draft`, in a
  :class:`~anabasis.app.editor.draft.History` (every edit is a new draft);
- **UI state**: the cursor, the box's corner, the brush, the
  :class:`~anabasis.app.viewer.sight.Sight` (view, turn, camera), a text field
  being typed, the message;
- **draw state**: the room as the renderer sees it (:meth:`Editor.picture`),
  the key of what the internal target holds, the shader variants warmed.

The slice drawn passes through the cursor, with the game's own renderer
(the ``EDIT`` variant draws the players as cells, not the pawn at the
slice's centre); the cursor and the box are outlined over it.  After each
edit the draft goes to the :class:`~anabasis.app.play.proofs.Prover`, whose
worker process proves it while the frames go on.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pygame

from anabasis.app.editor import hud as editor_hud
from anabasis.app.editor import pick
from anabasis.app.editor.draft import BRUSH_NAMES, COLUMN, FLOOR, KINDS, Draft, DraftError, History
from anabasis.app.play.proofs import Prover
from anabasis.app.settings.keymap import EDITOR, FIELD
from anabasis.app.settings.rooms import plain, rooms_dir  # noqa: F401 (the editor's API too)
from anabasis.app.shell.scene import Scene
from anabasis.app.shell.textfield import TextField
from anabasis.app.viewer.camera import ORBITS, WARM_AFTER_S, CameraInput
from anabasis.app.viewer.drawstate import DrawCache, Warmer
from anabasis.app.viewer.projection import projector, ray
from anabasis.app.viewer.sight import Sight
from anabasis.app.viewer.slicemap import DraftMap
from anabasis.engine.cells import CODE_OF, PLAYER
from anabasis.engine.world import VIEWS, Room, State
from anabasis.picture import views

#: The number keys' kinds: 0 empty, 1 block, 2-5 the ramps, 6 crate, 7 player, 8 goal.
NUMBER_KINDS = dict(enumerate(KINDS))
MESSAGE_S = 3.0
CLICK_SLOP = 4  #: pixels a press may move and still be a click, not a drag

#: The action that, pressed again, confirms a save or a copy of an impossible room.
_CONFIRM_ACTIONS = {"save": "save", "copy": "copy"}


@dataclass
class EditTarget:
    """What the editor opens and where it saves.

    ``draft``: the room to start from; ``save_to``: the file a save writes
    (None: a new file in the data folder's ``rooms``, named on the first save);
    ``source``: the words the title uses ("level 3", a file name, "a new room").
    """

    draft: Draft
    save_to: Path | None = None
    source: str = "a new room"


def played_target(opened) -> EditTarget:
    """What the editor opens for a room being played (an ``Opened``): the room as it starts,
    saved as a new room of the player's (a shipped level is never written over)."""
    from anabasis.app.settings.progress import level_key

    room = opened.room
    if opened.kind == "level":
        source = f"level {opened.level}"
        name = room.name or level_key(opened.level)
    elif opened.kind in ("gen", "daily"):
        source, name = opened.title, room.name or (opened.spec or opened.title)
    else:
        source, name = "a shared room", room.name
    draft = Draft.of_room(room)
    if name != draft.name:
        draft = draft.with_header(name=name)
    return EditTarget(draft, None, source)


def open_saved(path: Path) -> EditTarget:
    """The :class:`EditTarget` of a saved room: it saves back to its own file
    (``LevelError`` if the format refuses it)."""
    from anabasis.formats import levelfile

    return EditTarget(Draft.of_room(levelfile.load(path)), path, path.name)


def open_played(app, opened) -> None:
    """The room being played, in the editor."""
    target = played_target(opened)
    app.edit(target)
    app.scene.say(app.keymap.text(f"editing a copy of {target.source}: {{save}} saves it as "
                                  "a new room of yours"), "info", 5.0)


def fresh_path(folder: Path, name: str) -> Path:
    """A file in ``folder`` named after the room that is not there yet: ``my-room-2.txt``."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "room"
    path = folder / f"{stem}.txt"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.txt"
    return path


def _xyzw(pos) -> str:
    return " ".join(f"{a} {v}" for a, v in zip("xyzw", pos, strict=True))


def _cells(lo, hi):
    for w in range(lo[3], hi[3] + 1):
        for z in range(lo[2], hi[2] + 1):
            for y in range(lo[1], hi[1] + 1):
                for x in range(lo[0], hi[0] + 1):
                    yield (x, y, z, w)


def picture_room(draft: Draft) -> Room:
    """The room the renderer draws for ``draft``: any draft, a room or not.

    The players are cells of their own (the ``EDIT`` variant draws them);
    the first goal glows, and none where there is none.  Built without the
    :class:`Room`'s checks, which a draft need not pass: it is only drawn.
    """
    players, crates, goals = draft.movers()
    table = {ch: CODE_OF.get(ch, 0) for ch in "$@*+%"}
    table.update({ch: code for ch, code in CODE_OF.items()})
    cells = bytearray(table[ch] for ch in draft.chars)
    for pos in players:
        cells[draft.index(pos)] = PLAYER
    room = object.__new__(Room)
    fields = {
        "size": draft.size, "cells": bytes(cells),
        "goal": goals[0] if goals else (-99, -99, -99, -99),
        "start": State.of(players[0] if players else (0, 0, 0, 0), crates),
        "wrap": draft.wrap, "name": draft.name, "teaches": draft.teaches, "par": None,
        "needs": (), "view": draft.view, "hook": draft.hook,
    }
    for key, value in fields.items():
        object.__setattr__(room, key, value)
    return room


class Editor(Scene):
    """The room editor."""

    name = "editor"

    def __init__(self, app, target: EditTarget | None = None):
        self.app = app
        self.target = target or EditTarget(Draft.new())
        # -- what undo brings back
        self.history = History(self.target.draft)
        self.saved_draft: Draft | None = self.target.draft if self.target.save_to else None
        # -- UI state
        self.cursor = self._first_cursor()
        self.draft_map = DraftMap()  #: the slice map of the draft, in the HUD
        self.mark = None  #: the box's other corner, or None
        self.brush = "#"
        view = self.draft.view if self.draft.view in VIEWS else "stand"
        self.sight = Sight(view, views.Camera(distance=self._framing(Sight(view))))
        self.field: str | None = None  #: "name" or "teaches" while typing one
        self.text_field: TextField | None = None  #: ... and its text
        self.message, self.message_kind, self.message_left = "", "info", 0.0
        self.leaving = False  #: Esc once with unsaved edits: Esc again leaves
        self.save_pending = False  #: S while proving: saved once the proofs are done
        self.clock = 0.0
        self._last_input = 0.0
        self._press: tuple[int, int] | None = None
        self._dragged = False
        self.camera_input = CameraInput()  #: drag, wheel, the orbit keys (play's own)
        self.last_code = ""  #: the room code copied last
        self.palette_rects: list = []  #: (rect, kind) of the palette, as last drawn
        self.proof_rects: list = []  #: (rect, line kind, text) of the proof panel, as drawn
        self.panel_rects: list = []  #: the HUD's panels, as drawn: the mouse there paints not
        self._hover_of = None  #: what the hover was worked out for (the draft, the sight)
        self.help = False  #: H or F1: the help over the editor
        self.hover: pick.Pick | None = None  #: what the mouse points at
        self.hover_cell = None  #: ... and the cell a left click paints
        self.pointer = None  #: the mouse's last pixel
        self._stroke = None  #: a drag painting: (button, axis, level, last cell)
        self.confirm = ""  #: "save" or "copy": pressed once on an impossible room
        self.code_shown: str | None = None  #: the code shown in its field (no clipboard)
        self.code_file: Path | None = None  #: ... and the file it was written to
        # -- draw state
        self._picture: Room | None = None
        self._picture_of: Draft | None = None
        from anabasis.picture.render import Pose

        # the one draw path (play's): what the target holds, and the EDIT variants to warm
        at = tuple(float(c) for c in self.cursor)
        self.draw_cache = DrawCache(Warmer([(None, [Pose(player=at, view=v) for v in VIEWS])],
                                           variant={"EDIT"}), variant={"EDIT"})
        self.prover = Prover()
        self._prove()
        self.say(app.keymap.text("a room of your own: {help} shows the help, keys along the "
                                 "bottom; {play} plays it"), "info", 5.0)

    # -- state ------------------------------------------------------------------------

    @property
    def draft(self) -> Draft:
        return self.history.draft

    @property
    def proofs(self):
        return self.prover.proofs

    @property
    def title(self) -> str:
        return f"editing {self.draft.name or self.target.source}"

    @property
    def keys(self) -> str:
        """Where the keymap reads keys: the editor's own first (the field's while a name is
        typed)."""
        return FIELD if self.field is not None else EDITOR

    @property
    def capturing(self) -> bool:
        """While a name is typed every key is the field's (M types an m, it does not mute)."""
        return self.field is not None

    @property
    def unsaved(self) -> bool:
        return self.draft != self.saved_draft

    def _first_cursor(self):
        players, _, _ = self.draft.movers()
        if players:
            return players[0]
        return (0, 0, 0, 0)

    def _framing(self, sight: Sight) -> float:
        w, h = self.app.window.scene_size
        fitted = views.fit_camera(sight.camera, views.view_basis(sight.view),
                                  self.draft.size, self.cursor, aspect=w / h)
        return max(fitted.distance, views.Camera().distance)

    def save_path(self) -> Path:
        return self.target.save_to or fresh_path(rooms_dir(self.app), self.draft.name)

    def say(self, text: str, kind: str = "info", seconds: float = MESSAGE_S) -> bool:
        self.message, self.message_kind, self.message_left = text, kind, seconds
        return True

    # -- edits --------------------------------------------------------------------------

    def edit(self, draft: Draft) -> bool:
        """Make ``draft`` the room (one undo step), and prove it anew."""
        if not self.history.do(draft):
            return False
        self._edited()
        return True

    def _edited(self) -> None:
        self.leaving = False
        self.confirm = ""
        if self.app.scene is self:  # a new name (or its undo) shows in the caption at once
            self.app.retitle(self.title)
        self.cursor = tuple(min(c, n - 1) for c, n in zip(self.cursor, self.draft.size,
                                                           strict=True))
        if self.mark is not None:
            self.mark = tuple(min(c, n - 1) for c, n in zip(self.mark, self.draft.size,
                                                            strict=True))
        self._prove()

    def _prove(self) -> None:
        # its workers start once the edit's frame is shown (App.after_frame)
        self.prover.start(self.draft.text(), self.save_path().name, launch=False)
        self.app.after_frame(self.prover.launch)

    def put(self, kind: str, pos=None) -> None:
        """``kind`` (a cell's kind, or the ``floor`` or ``column`` brush) at the cursor (or
        ``pos``); it becomes the brush."""
        self.brush = kind
        pos = pos or self.cursor
        if kind == FLOOR:
            draft, held = self.draft.floor(pos, self._up_axis())
            self.edit(draft)
            if held is None:
                self.say(f"a block at {_xyzw(pos)}, but nothing can hold a player on it from "
                         f"the other gravity here (outside the room)", "warn", 4.0)
            return
        if kind == COLUMN:
            self.edit(self.draft.column(pos))
            return
        self.edit(self.draft.put(pos, kind))

    def painted(self, draft: Draft, cell, kind: str) -> Draft:
        """``draft`` with ``kind`` (a cell's kind or a brush) put at ``cell``."""
        if kind == FLOOR:
            return draft.floor(cell, self._up_axis())[0]
        if kind == COLUMN:
            return draft.column(cell)
        return draft.put(cell, kind)

    def _up_axis(self) -> int:
        """The 4D axis the view draws up (z, or w in the w-up view)."""
        b = views.view_basis(self.sight.view)
        return int(np.argmax(np.abs(b[:, 2])))

    def box(self):
        """The marked box: (lo, hi) corners (inclusive), or None when no corner is marked."""
        if self.mark is None:
            return None
        lo = tuple(min(a, b) for a, b in zip(self.mark, self.cursor, strict=True))
        hi = tuple(max(a, b) for a, b in zip(self.mark, self.cursor, strict=True))
        return lo, hi

    def box_line(self) -> str:
        """What the HUD says of the box: whether one is set, its size, the slices it reaches."""
        box = self.box()
        if box is None:
            return self.app.keymap.text("no box: {mark} marks a corner here")
        lo, hi = box
        n = math.prod(b - a + 1 for a, b in zip(lo, hi, strict=True))
        text = (f"box: {' x '.join(str(b - a + 1) for a, b in zip(lo, hi, strict=True))}"
                f" = {n} cell{'s' if n != 1 else ''}"
                + self.app.keymap.text(" · {fill} fills · {clear_box} clears · {mark} unmarks"))
        hidden = self._hidden_reach()
        if hidden:
            text += f" · {hidden}"
        return text

    def _hidden_reach(self) -> str:
        """Where the box reaches into slices the view does not show ("" where it does not)."""
        box = self.box()
        if box is None:
            return ""
        k = views.hidden_axis(self.sight.view)
        lo, hi = box
        if lo[k] == hi[k]:
            return ""
        axis = "xyzw"[k]
        return (f"it reaches {axis} {lo[k]} to {hi[k]}, and only {axis} {self.cursor[k]} is "
                f"shown")

    def fill(self, kind: str) -> None:
        if self.mark is None:
            self.say(self.app.keymap.text("mark a corner of the box first ({mark}), then move "
                                          "to the other"), "warn")
            return
        (lo, hi), hidden = self.box(), self._hidden_reach()
        if kind in (FLOOR, COLUMN):
            draft = self.draft
            for cell in _cells(lo, hi):
                draft = self.painted(draft, cell, kind)
        else:
            draft = self.draft.fill(lo, hi, kind)
        self.mark = None  # done with: the next F or X starts a box of its own
        n = math.prod(b - a + 1 for a, b in zip(lo, hi, strict=True))
        what = "cleared" if kind == "." else f"filled with {BRUSH_NAMES.get(kind, kind)}"
        self.edit(draft)
        if hidden:
            walk = self.app.keymap.text("{cursor_w-} {cursor_w+}")
            self.say(f"{n} cells {what}: {hidden} ({walk} walk the slices)", "warn", 5.0)
        else:
            self.say(f"{n} cell{'s' if n != 1 else ''} {what}; the box is unmarked", "dim",
                     2.0)

    def toggle_mark(self) -> None:
        """Space: mark the box's corner here, or unmark it."""
        if self.mark is not None:
            self.mark = None
            self.say(self.app.keymap.text("the box is unmarked ({mark} marks a corner again)"),
                     "dim", 2.0)
            return
        self.mark = self.cursor
        self.say(f"a box corner at {_xyzw(self.cursor)}: move to the other corner, then "
                 + self.app.keymap.text("{fill} fills it, {clear_box} clears it"), "info", 4.0)

    def resize(self, axis: int, by: int) -> None:
        n = self.draft.size[axis] + by
        try:
            self.edit(self.draft.resized(axis, n))
        except DraftError as e:
            self.say(str(e), "warn")
            return
        self.say(f"the room is {' x '.join(map(str, self.draft.size))}", "dim", 1.5)

    def toggle_wrap(self) -> None:
        try:
            self.edit(self.draft.with_wrap(not self.draft.wrap))
        except DraftError as e:
            self.say(str(e), "warn")
            return
        self.say("w wraps" if self.draft.wrap else "w does not wrap", "dim", 1.5)

    def toggle_hook(self) -> None:
        """The ``hook:`` switch: a hook room (the hook a move, proved so) or not."""
        self.edit(replace(self.draft, hook=not self.draft.hook))
        self.say("a hook room: the hook is a move, and the proofs take it" if self.draft.hook
                 else "not a hook room: the hook is no move here", "dim", 2.0)

    def undo(self) -> None:
        if self.history.undo():
            self._edited()
            self.say("undone", "dim", 0.8)
        else:
            self.say("nothing to undo", "dim", 1.2)

    def redo(self) -> None:
        if self.history.redo():
            self._edited()
            self.say("redone", "dim", 0.8)
        else:
            self.say("nothing to redo", "dim", 1.2)

    def move_cursor(self, axis: int, by: int) -> None:
        c = list(self.cursor)
        c[axis] = min(max(c[axis] + by, 0), self.draft.size[axis] - 1)
        self.cursor = tuple(c)

    # -- play, share, keep ----------------------------------------------------------------

    def room(self) -> Room | None:
        """The draft as a room, with the par and needs proved; None (and why, said) if refused."""
        from anabasis.formats.levelfile import LevelError

        proofs = self.proofs
        par = proofs.par if proofs.status == "solved" else None
        needs = proofs.needs if proofs.done else ()
        try:
            return self.draft.room(self.save_path().name, par, needs)
        except LevelError as e:
            self.say(f"not a room yet: {plain(str(e))}", "warn", 5.0)
            return None

    def play(self, solution: bool = False) -> None:
        """Play the room as it stands (P), or watch the solver's solution (L)."""
        from anabasis.app.play.scene import Play
        from anabasis.app.play.session import Opened

        if solution and self.proofs.status != "solved":
            self.say("no solution to show: " + self.proofs.lines()[0][1], "warn")
            return
        room = self.room()
        if room is None:
            return
        opened = Opened(room, "edit", f"testing {room.name or 'your room'}", back=self)
        play = Play(self.app, opened)
        self.app.switch(play, opened.title)
        if solution:
            play.play_moves(self.proofs.moves)

    def returned(self) -> None:
        """Back from a play-test: the draft is as it was; frame the same picture again."""
        self.draw_cache.forget()
        self.app.switch(self, self.title)

    def _impossible_asked(self, what: str) -> bool:
        """A room proved impossible (or too big to prove) is saved or copied only when the
        key is pressed again: True when this press is the first, and the warning is said."""
        proofs = self.proofs
        if proofs.status not in ("impossible", "too-big") or self.confirm == what:
            self.confirm = ""
            return False
        self.confirm = what
        key = "S" if what == "save" else "C"
        reason = plain(proofs.lines()[0][1])
        self.say(f"this room cannot be won ({reason}): {key} again {what}s it all the same",
                 "warn", 6.0)
        return True

    def copy_code(self) -> None:

        if self._impossible_asked("copy"):
            return
        room = self.room()
        if room is None:
            return
        code = self.last_code = self.encode(room)
        if self.app.copy(code):
            self.say(f"room code copied: {code}")
            return
        print(f"room code: {code}", flush=True)
        self.show_code(code)  # no clipboard: in a field of its own, and in a file

    def encode(self, room: Room) -> str:
        """The room's code, with its name and teaches line (the plain code where the name
        is longer than a code carries: said)."""
        from anabasis.formats import codes

        try:
            return codes.encode(room, named=True)
        except ValueError as e:
            self.say(f"the code leaves the name out: {e}", "warn", 5.0)
            return codes.encode(room)

    def show_code(self, code: str | None = None) -> None:
        """Shift+C (or C with no clipboard): the code whole, in a field of its own (its
        characters coloured by kind, so look-alikes differ), and written to a file beside
        the save (``my-room.code.txt``), to be sent as it is."""
        from anabasis.app.settings.progress import atomic_write

        if code is None:
            room = self.room()
            if room is None:
                return
            code = self.last_code = self.encode(room)
        self.code_shown = code
        self.code_file = None
        path = self.save_path().with_suffix(".code.txt")
        try:
            atomic_write(path, code + "\n")
            self.code_file = path
        except OSError as e:
            self.say(f"{path} could not be written: {e.strerror or e}", "warn", 6.0)

    def save(self) -> Path | None:
        """S: the level file, with ``par:`` and ``needs:`` from the proofs (once they are done)."""
        from anabasis.app.settings.progress import atomic_write

        proofs = self.proofs
        if proofs.status == "refused":
            self.say(f"not saved: {plain(proofs.refusal)}", "warn", 5.0)
            return None
        if not proofs.done:
            self.save_pending = True
            self.say("saving as soon as the proofs are done…", "dim", 2.0)
            return None
        self.save_pending = False
        if self._impossible_asked("save"):
            return None
        path = self.save_path()
        par = proofs.par if proofs.status == "solved" else None
        try:
            atomic_write(path, self.draft.text(par, proofs.needs))
        except OSError as e:
            self.say(f"could not save {path}: {e.strerror or e}", "warn", 6.0)
            return None
        self.target.save_to = path
        self.saved_draft = self.draft
        note = f"par {par}" if par is not None else f"no par: {plain(proofs.lines()[0][1])}"
        self.say(f"saved {path} ({note})", "good", 5.0)
        return path

    def leave(self) -> None:
        if self.unsaved and not self.leaving and self.draft != self.target.draft:
            self.leaving = True
            self.say(self.app.keymap.text("unsaved edits: {save} saves · {back} again leaves "
                                          "without saving"), "warn", 4.0)
            return
        self.prover.stop()
        self.app.to_launcher_on(("edit",))  # back on "make a room…", not on a level

    # -- input ----------------------------------------------------------------------------

    def handle(self, event, action: str | None = None) -> None:
        self._last_input = self.clock
        t = event.type
        if self.field is not None:
            self._typing(event, action)
            return
        if t == pygame.KEYDOWN:
            self._key(action)
        elif t == pygame.KEYUP:
            if action in ORBITS:
                self.camera_input.release(action, self.clock, self.sight.camera.yaw)
        elif t == pygame.MOUSEBUTTONDOWN:
            self._mouse_down(event.pos, event.button)
        elif t == pygame.MOUSEMOTION:
            self._mouse_moved(event.pos, event.rel)
        elif t == pygame.MOUSEBUTTONUP:
            self._mouse_up(event.pos, event.button)
        elif t == pygame.MOUSEWHEEL:
            self.sight = self.camera_input.wheel(self.sight, event.y)

    def _key(self, action: str | None) -> None:
        """A key, as the keymap read it (the editor's own keys first, then the game's)."""
        if self.help:
            self.help = False  # any key closes the help (H and F1 too)
            return
        if self.code_shown is not None:
            if action in ("back", "play", "next", "copy", "show_code"):
                self.code_shown = None
            return
        if action is None:
            return
        if self.confirm and action != _CONFIRM_ACTIONS.get(self.confirm):
            self.confirm = ""
        kind, _, sign = action.partition("_")
        if action == "help":
            self.help = True
        elif action == "floor_brush":
            self.put(FLOOR)
        elif action == "column_brush":
            self.put(COLUMN)
        elif kind in ("cursor", "size") and sign[:1] in "xyzw" and sign[1:] in ("+", "-"):
            axis, by = "xyzw".index(sign[0]), (1 if sign[1] == "+" else -1)
            if kind == "size":
                self.resize(axis, by)
            else:
                self.move_cursor(axis, by)
        elif action.startswith("put_") and action[4:].isdigit():
            self.put(NUMBER_KINDS[int(action[4:])])
        elif action == "put_empty":
            self.put(".")
        elif action == "mark":
            self.toggle_mark()
        elif action == "fill":
            self.fill(self.brush)
        elif action == "clear_box":
            self.fill(".")
        elif action == "undo":
            self.undo()
        elif action == "redo":
            self.redo()
        elif action == "wrap":
            self.toggle_wrap()
        elif action == "hook_switch":
            self.toggle_hook()
        elif action in ("name", "teaches"):
            self._start_field(action)
        elif action == "opening_view":
            view = views.next_view(self.draft.view)
            self.edit(self.draft.with_header(view=view))
            self.say(f"the room opens in the {view} view", "dim", 1.5)
        elif action == "turn":
            self.sight = self.sight.turned(self._framing(self.sight.turned()))
        elif action in ORBITS:
            self.camera_input.press(action, self.clock, self.sight.camera.yaw)
        elif action == "play":
            self.play()
        elif action == "solution":
            self.play(solution=True)
        elif action == "save":
            self.save()
        elif action == "show_code":
            self.show_code()
        elif action == "copy":
            self.copy_code()
        elif action == "back":
            self.leave()

    def _start_field(self, which: str) -> None:
        self.field = which
        # the letter that opened it, and the frame: SDL may type it too, in the same frame;
        # the old text is shown selected: typing replaces it
        self.text_field = TextField(getattr(self.draft, which), fresh=True,
                                    opener=(which[0], self.app.frames))

    @property
    def field_text(self) -> str:
        return self.text_field.text if self.text_field is not None else ""

    @property
    def field_fresh(self) -> bool:
        return self.text_field is not None and self.text_field.fresh

    def _typing(self, event, action: str | None) -> None:
        got = self.text_field.handle(event, self.app.frames, action)
        if got == "cancel":
            self.field = None
            self.text_field.close()
        elif got == "enter":
            which, self.field = self.field, None
            self.text_field.close()
            self.edit(self.draft.with_header(**{which: self.field_text}))

    # -- the mouse: from the screen to a cell ---------------------------------------------

    def project(self, s, size) -> tuple[float, float] | None:
        """The window pixel of the slice point ``s`` (from the cursor's centre), or None behind."""
        return self.projector(size)(s)

    def projector(self, size):
        """:meth:`project` for many points of the picture now: the camera worked out once."""
        at = projector(self.sight.camera, size)

        def pixel(s) -> tuple[float, float] | None:
            x, y, depth = at(s)
            return None if depth < 0.05 else (x, y)

        return pixel

    def cell_at(self, pixel, size):
        """The cell of the cursor's layer under window ``pixel`` (its floor), or None."""
        b = self.sight.basis()
        eye, d = ray(self.sight.camera, size, pixel)
        if abs(d[2]) < 1e-6:
            return None
        t = (-0.5 + 1e-4 - eye[2]) / d[2]  # the floor of the cursor's layer
        if t <= 0:
            return None
        s = eye + t * d
        p = np.asarray(self.cursor, float) + 0.5 + b[:, :3] @ s
        cell = tuple(int(math.floor(c)) for c in p)
        return cell if self.draft.inside(cell) else None

    def _uniforms(self, size) -> dict:
        from anabasis.picture.render import frame_uniforms

        return frame_uniforms(self.picture(), self.sight.frame_at(self.cursor), size)[0]

    def pick(self, pixel, size=None) -> pick.Pick | None:
        """What the ray through window ``pixel`` meets first, as the picture draws it."""
        size = size or self.app.window.size
        if self.sight.turning:
            return None
        u = self._uniforms(size)
        return pick.walk(self.draft, u, *pick.ray(u, pixel, size))

    def aim(self, pixel, button: int, size=None):
        """(cell, axis, level) a press at ``pixel`` paints (left) or clears (right): the cell
        beside the face the mouse points at, or the cell itself; where the ray meets
        nothing, the cell on the floor of the cursor's layer.  ``axis`` and ``level``: the
        layer a drag from there goes on painting in.  None: nothing there."""
        size = size or self.app.window.size
        hit = self.pick(pixel, size)
        up = self._up_axis()
        if hit is not None:
            into_goal = self.draft.at(hit.cell) == "*" and self.brush in ("@", "$")
            if button == 3 or self.brush == "." or into_goal or hit.beside is None:
                cell = hit.cell if (button == 3 or self.brush == "." or into_goal) else None
            else:
                cell = hit.beside
            if cell is None:
                return None
            axis = next((k for k, v in enumerate(hit.face or ()) if v), up)
            return cell, axis, cell[axis]
        cell = self.cell_at(pixel, size)
        if cell is None:
            return None
        return cell, up, cell[up]

    def click(self, pixel, button: int) -> None:
        """A click: on the palette, choose the brush; on the room, put it (right: empty)."""
        self._mouse_down(pixel, button)
        self._mouse_up(pixel, button)

    def _mouse_down(self, pixel, button: int) -> None:
        self.pointer = pixel
        if button == 1 and self.draft_map.click(self, pixel):
            return  # on the slice map: the cursor went to that column
        if button in (1, 3):
            for rect, kind in self.palette_rects:
                if rect.collidepoint(pixel):
                    self.brush = kind
                    return
            if self._on_panel(pixel):
                return
            aimed = self.aim(pixel, button)
            if aimed is not None:
                cell, axis, level = aimed
                # the cursor stays (the picture is centred on it): clicks paint where the
                # mouse is, and a drag goes on in the same layer
                kind = "." if button == 3 else self.brush
                draft = self.painted(self.draft, cell, kind)
                self._stroke = (button, axis, level, cell, self.history.do(draft))
                return
        # a press on nothing (or the middle button): a drag turns the camera
        self._press = pixel
        self._dragged = False

    def _mouse_moved(self, pixel, rel) -> None:
        self.pointer = pixel
        if self._stroke is not None:
            button, axis, level, last, changed = self._stroke
            u = self._uniforms(self.app.window.size)
            cell = pick.on_plane(u, pixel, self.app.window.size, axis, level,
                                 self.draft.inside)
            if cell is not None and cell != last:
                kind = "." if button == 3 else self.brush
                draft = self.draft
                for c in pick.line(last, cell)[1:]:
                    draft = self.painted(draft, c, kind)
                if changed:
                    self.history.amend(draft)
                else:
                    changed = self.history.do(draft)
                self._stroke = (button, axis, level, cell, changed)
            self._hover(pixel)
            return
        if self._press is not None:
            dx, dy = rel
            px, py = self._press
            if abs(pixel[0] - px) + abs(pixel[1] - py) > CLICK_SLOP:
                self._dragged = True
            if self._dragged:
                self.sight = self.camera_input.drag(self.sight, (dx, dy))
            return
        self._hover(pixel)

    def _mouse_up(self, pixel, button: int) -> None:
        if self._stroke is not None and self._stroke[0] == button:
            changed = self._stroke[4]
            self._stroke = None
            if changed:
                self._edited()  # one undo step for the stroke, proved once
            self._hover(pixel)
        elif self._press is not None:
            self._press = None

    def _on_panel(self, pixel) -> bool:
        return any(rect.collidepoint(pixel) for rect in self.panel_rects)

    def _hover(self, pixel) -> None:
        """The cell under the mouse, outlined: where a left click paints."""
        self._hover_of = (self.draft, self.sight)
        if self._on_panel(pixel) or self.sight.turning:
            self.hover, self.hover_cell = None, None
            return
        self.hover = self.pick(pixel)
        aimed = self.aim(pixel, 1)
        self.hover_cell = aimed[0] if aimed else None

    # -- time -----------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.message_left > 0:
            self.message_left -= dt
        spin = self.camera_input.spin(dt)
        if spin:
            self.sight = self.sight.orbit(spin)
        if self.sight.turning:
            self.sight = self.sight.advanced(dt)
        if (self.pointer is not None and self._stroke is None and self._press is None
                and self._hover_of != (self.draft, self.sight)):
            self._hover(self.pointer)  # an edit or a turn moved what is under the mouse
        self.prover.poll()
        if self.save_pending and self.proofs.done:
            self.save()

    # -- drawing --------------------------------------------------------------------------

    def picture(self) -> Room:
        if self._picture_of != self.draft:
            self._picture = picture_room(self.draft)
            self._picture_of = self.draft
        return self._picture

    def draw_gl(self, window) -> bool:
        # the draft as built: a crate where it was put, and no rules asked of a draft that
        # need not be a room (no goal yet, two players)
        renderer = self.app.renderer_for(self.picture(), ruled=False)
        idle = self.clock - self._last_input > WARM_AFTER_S and not self.sight.turning
        key = (self.draft, self.cursor, self.sight, window.scene_serial, window.scene_size,
               id(renderer))
        # (at rest, drawn once more at the window's own size, as play does: the draft a
        # designer reads was the budget's picture scaled up, and blurred)
        return self.draw_cache.draw(window, renderer, lambda: self.sight.frame_at(self.cursor),
                                    key, idle, sharp=True)

    def draw_overlay(self, ov) -> None:
        editor_hud.draw(ov, self)

    def close(self) -> None:
        self.prover.close()
