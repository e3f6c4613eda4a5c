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
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pygame

from anabasis.app.editor import hud as editor_hud
from anabasis.app.editor.draft import KINDS, Draft, DraftError, History
from anabasis.app.play.proofs import Prover
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


def rooms_dir(app) -> Path:
    """The data folder's ``rooms`` (beside the saved progress)."""
    from anabasis.app.settings.progress import data_dir

    path = getattr(app.progress, "path", None)
    return (Path(path).parent if path else data_dir()) / "rooms"


def fresh_path(folder: Path, name: str) -> Path:
    """A file in ``folder`` named after the room that is not there yet: ``my-room-2.txt``."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "room"
    path = folder / f"{stem}.txt"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.txt"
    return path


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
        "needs": (), "view": draft.view,
    }
    for key, value in fields.items():
        object.__setattr__(room, key, value)
    return room


class Editor(Scene):
    """The room editor."""

    name = "editor"
    keys = "editor"  #: the keymap reads the editor's own keys here first

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
        self.say("a room of your own: keys along the bottom; P plays it", "info", 5.0)

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
        self.brush = kind
        self.edit(self.draft.put(pos or self.cursor, kind))

    def fill(self, kind: str) -> None:
        if self.mark is None:
            self.say("mark a corner of the box first (Space), then move to the other", "warn")
            return
        self.edit(self.draft.fill(self.mark, self.cursor, kind))

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
            self.say(f"not a room yet: {e}", "warn", 5.0)
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

    def copy_code(self) -> None:
        from anabasis.formats import codes

        room = self.room()
        if room is None:
            return
        code = codes.encode(room)
        self.last_code = code
        self.app.copy_code(code)

    def save(self) -> Path | None:
        """S: the level file, with ``par:`` and ``needs:`` from the proofs (once they are done)."""
        from anabasis.app.settings.progress import atomic_write

        proofs = self.proofs
        if proofs.status == "refused":
            self.say(f"not saved: {proofs.refusal}", "warn", 5.0)
            return None
        if not proofs.done:
            self.save_pending = True
            self.say("saving as soon as the proofs are done…", "dim", 2.0)
            return None
        self.save_pending = False
        path = self.save_path()
        par = proofs.par if proofs.status == "solved" else None
        try:
            atomic_write(path, self.draft.text(par, proofs.needs))
        except OSError as e:
            self.say(f"could not save {path}: {e.strerror or e}", "warn", 6.0)
            return None
        self.target.save_to = path
        self.saved_draft = self.draft
        note = f"par {par}" if par is not None else f"no par: {proofs.lines()[0][1]}"
        self.say(f"saved {path} ({note})", "good", 5.0)
        return path

    def leave(self) -> None:
        if self.unsaved and not self.leaving and self.draft != self.target.draft:
            self.leaving = True
            self.say("unsaved edits: S saves · Esc again leaves without saving", "warn", 4.0)
            return
        self.prover.stop()
        self.app.to_launcher()

    # -- input ----------------------------------------------------------------------------

    def handle(self, event, action: str | None = None) -> None:
        self._last_input = self.clock
        t = event.type
        if self.field is not None:
            self._typing(event)
            return
        if t == pygame.KEYDOWN:
            self._key(action)
        elif t == pygame.KEYUP:
            if action in ORBITS:
                self.camera_input.release(action, self.clock, self.sight.camera.yaw)
        elif t == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self._press = event.pos
            self._dragged = False
        elif t == pygame.MOUSEMOTION and self._press is not None:
            dx, dy = event.rel
            px, py = self._press
            if abs(event.pos[0] - px) + abs(event.pos[1] - py) > CLICK_SLOP:
                self._dragged = True
            if self._dragged:
                self.sight = self.camera_input.drag(self.sight, (dx, dy))
        elif t == pygame.MOUSEBUTTONUP and event.button in (1, 3):
            if self._press is not None and not self._dragged:
                self.click(event.pos, event.button)
            self._press = None
        elif t == pygame.MOUSEWHEEL:
            self.sight = self.camera_input.wheel(self.sight, event.y)

    def _key(self, action: str | None) -> None:
        """A key, as the keymap read it (the editor's own keys first, then the game's)."""
        if action is None:
            return
        kind, _, sign = action.partition("_")
        if kind in ("cursor", "size") and sign[:1] in "xyzw" and sign[1:] in ("+", "-"):
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
            self.mark = None if self.mark == self.cursor else self.cursor
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

    def _typing(self, event) -> None:
        got = self.text_field.handle(event, self.app.frames)
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

    def click(self, pixel, button: int) -> None:
        """A click: on the palette, choose the brush; on the room, put it (right: empty)."""
        if self.draft_map.click(self, pixel):
            return  # on the slice map: the cursor went to that column
        for rect, kind in self.palette_rects:
            if rect.collidepoint(pixel):
                self.brush = kind
                return
        cell = self.cell_at(pixel, self.app.window.size)
        if cell is None:
            return
        # the cursor stays (the picture is centred on it): clicks paint where the mouse is
        self.edit(self.draft.put(cell, "." if button == 3 else self.brush))  # brush kept

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
        return self.draw_cache.draw(window, renderer, lambda: self.sight.frame_at(self.cursor),
                                    key, idle)

    def draw_overlay(self, ov) -> None:
        editor_hud.draw(ov, self)

    def close(self) -> None:
        self.prover.close()
