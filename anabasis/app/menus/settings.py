"""The settings screen: sound, the slice map, the step marks, text size, motion, colours,
the daily board.

Opened from the launcher ("settings…") and in play (the ``settings`` key);
Esc (or its "back" line) goes back where it came from, the room as it was.
Up/Down choose a line; Left/Right (or Enter, or a click) change it.  Each
change is saved with the progress at once (the save file's ``FIELDS``).

The daily board's line cycles none, this machine and the last URL; Enter
on it types a URL (Enter keeps it if it is one, Esc leaves it as it was),
and the session's link to the board follows at once (``app.daily_board``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from anabasis.app.menus.menu import STEPS, Menu, MenuShown
from anabasis.app.settings import progress as saved
from anabasis.app.settings.keymap import FIELD, MENU
from anabasis.app.shell.overlay import DIM, GOLD, INK
from anabasis.app.shell.textfield import CANCEL, EDITED, ENTER, TextField

#: The keys line at the bottom (each ``{action}`` written as its key).
HINT = "{menu_up}/{menu_down} choose · {menu_left}/{menu_right} or {choose} change · {leave} back"

BACK = "back"

#: How each choice is said.
SAID = {
    "slice_map": {"auto": "3 or more slices, made rooms", "on": "always", "off": "off"},
    "map_opens": {"large": "the large map", "corner": "the room, the map in its corner"},
    "step_marks": {"auto": "levels and made rooms", "on": "always",
                   "held": "while their key is held"},
    "palette": {"standard": "standard", "safe": "colour-blind safe"},
}

TEXT_STEP = 0.1


@dataclass
class Line:
    name: str  #: the setting (a field of the progress), or BACK
    label: str
    detail: str


LINES = [
    Line("volume", "volume", "the effects' loudness (M mutes, in any screen)"),
    Line("slice_map", "slice map", "every w slice side by side, from above (B in play: large)"),
    Line("map_opens", "made rooms open on", "a made room's first look: every slice large"
         " (B: the room), or the room"),
    Line("step_marks", "step marks", "what each step will do, marked on its cell"),
    Line("text_size", "text size", "the size of every line of text"),
    Line("reduced_motion", "reduced motion", "turns, moves and camera glides played faster"),
    Line("palette", "colours", "colour-blind safe: blue and orange, and shapes for all"),
    Line("fullscreen", "fullscreen", "the whole screen, or a window"),
    Line("board", "daily board", "where today's wins are compared: nowhere, a board you run "
         "on this machine, or a board's web address (Enter types one)"),
    Line(BACK, "back", "everything here is saved already"),
]


#: The board setting's words, and how the board's line says them (a URL is said as is).
BOARD_WORDS = ("none", "local")
BOARD_SAID = {"none": "none", "local": "this machine"}


def progress_board(app) -> str:
    return (app.progress.board or "none").strip()


def _short(url: str, most: int = 40) -> str:
    return url if len(url) <= most else url[:most - 1] + "…"


class SettingsScreen(Menu):
    """The settings (a scene, like the launcher); ``back_to`` is the scene Esc returns to."""

    name = "settings"

    def __init__(self, app, back_to=None):
        self.app = app
        self.back_to = back_to
        self.items = LINES
        self.selected = 0
        self.rects: list[pygame.Rect] = []
        self.status = ""
        self.field: TextField | None = None  #: the board's URL being typed
        #: the board URL offered among the choices: the saved one, or the last typed
        self.board_url = "" if progress_board(app) in BOARD_WORDS else progress_board(app)

    @property
    def typing(self) -> bool:
        """A URL is being typed (the loop then leaves M and - to the text)."""
        return self.field is not None

    @property
    def keys(self) -> str:
        """Where the keymap reads keys: the URL field's while typing, else the menu's."""
        return FIELD if self.field is not None else MENU

    # -- values -----------------------------------------------------------------------

    def value(self, name: str):
        app = self.app
        if name == "volume":
            return 0.0 if app.sound.muted else app.sound.volume
        if name == "fullscreen":
            return app.window.fullscreen
        return getattr(app.progress, name)

    def shown(self, name: str) -> str:
        v = self.value(name)
        if name == "volume":
            return "off" if self.app.sound.muted else f"{round(v * 100)}%"
        if name == "text_size":
            return f"{round(v * 100)}%"
        if name == "board":
            if self.field is not None:
                return self.field.text + "_"
            return BOARD_SAID.get(v.strip().lower(), _short(v))
        if isinstance(v, bool):
            return "on" if v else "off"
        return SAID.get(name, {}).get(v, str(v))

    def change(self, name: str, d: int) -> None:
        """Line ``name`` one choice on (``d`` +1) or back (-1), applied and saved."""
        app, progress = self.app, self.app.progress
        if name == BACK:
            self.back()
            return
        if name == "volume":
            app.sound_key("volume_up" if d > 0 else "volume_down")
        elif name == "fullscreen":
            app.window.toggle_fullscreen()
            app.overlay.resize(app.window.size)
            progress.fullscreen = app.window.fullscreen
        elif name == "text_size":
            lo, hi = saved.TEXT_SIZES
            progress.text_size = round(min(max(progress.text_size + d * TEXT_STEP, lo), hi), 2)
            app.overlay.text_scale = progress.text_size
        elif name == "reduced_motion":
            progress.reduced_motion = not progress.reduced_motion
        elif name == "board":
            choices = ["none", "local"] + ([self.board_url] if self.board_url else [])
            now = progress.board.strip().lower()
            at = choices.index(now) if now in choices else (
                choices.index(progress.board) if progress.board in choices else 0)
            self._set_board(choices[(at + d) % len(choices)])
            return
        else:
            choices = {"slice_map": saved.SLICE_MAP_CHOICES,
                       "step_marks": saved.STEP_MARK_CHOICES, "palette": saved.PALETTES,
                       "map_opens": saved.MAP_OPENS_CHOICES}[name]
            now = choices.index(getattr(progress, name))
            setattr(progress, name, choices[(now + d) % len(choices)])
        self.status = f"{self.items[self.selected].label}: {self.shown(name)}"
        app.save_progress()
        back = self.back_to
        if back is not None and hasattr(back, "reading") and name in ("slice_map", "step_marks"):
            back.reading.settings_changed()  # the room behind takes the new choice

    # -- input --------------------------------------------------------------------------

    def _set_board(self, value: str) -> None:
        """The board setting to ``value``: saved, and the session's link to it remade."""
        from anabasis.app.play.daily_card import DailyBoard

        app = self.app
        app.progress.board = value
        app.save_progress()
        old, app.daily_board = app.daily_board, DailyBoard(app.progress.path.parent, value)
        old.stop(0)  # never waits in a frame: its thread ends after what it is sending
        self.status = f"daily board: {self.shown('board')}"

    def _type_board(self, event, action: str | None) -> None:
        got = self.field.handle(event, action=action)
        if got == EDITED:
            self.status = "type the board's URL · Enter keeps it · Esc leaves it as it was"
        elif got == CANCEL:
            self.field.close()
            self.field = None
            self.status = f"daily board: {self.shown('board')}"
        elif got == ENTER:
            from anabasis.board import client

            text = self.field.text.strip()
            try:
                url = client.board_url(text)
            except client.BoardError as e:
                self.status = f"not a board: {e}"
                return
            self.field.close()
            self.field = None
            if url is not None and text.lower() != "local":
                self.board_url = text = url
            self._set_board(text.lower() if text.lower() in BOARD_WORDS else text)

    def handle(self, event, action: str | None = None) -> None:
        if self.field is not None:
            self._type_board(event, action)
            return
        if event.type == pygame.KEYDOWN:
            action = STEPS.get(action, action)
            name = self.items[self.selected].name
            if action in ("left", "right"):
                self.change(name, +1 if action == "right" else -1)
            elif self.steer(action):
                pass
            elif action == "choose":
                self.activate(self.selected)
            elif action in ("leave", "back", "settings"):
                self.back()
        else:
            self.pointer_and_pad(event)

    def _switch_column(self) -> None:
        pass  # one column: Left/Right change the line instead (handled above)

    def activate(self, i: int) -> None:
        self.selected = i
        if self.items[i].name == "board":  # Enter on the board's line: type a URL
            now = self.app.progress.board
            self.field = TextField(now if now.startswith(("http://", "https://"))
                                   else "https://", paste=self.app.paste)
            self.status = "type the board's URL · Enter keeps it · Esc leaves it as it was"
            return
        self.change(self.items[i].name, +1)

    def back(self) -> None:
        self.app.settings_done(self.back_to)

    def say(self, text: str, kind: str = "info", seconds: float = 0.0) -> bool:
        self.status = text
        return True

    # -- drawing --------------------------------------------------------------------------

    def draw_gl(self, window) -> bool:
        """The room behind, as it was left (from play), else a dark backdrop."""
        if self.back_to is not None:
            return bool(self.back_to.draw_gl(window))
        window.begin_scene()
        return False

    def draw_overlay(self, ov) -> None:
        shown = MenuShown(ov.size, ov.scale,
                          tuple((line.label, None if line.name == BACK else self.shown(line.name),
                                 line.detail) for line in self.items),
                          self.selected, self.status, self.app.keymap.text(HINT))
        if not ov.begin(shown):  # drawn from this value alone, again only when it changes
            return
        W, H = ov.size
        s = ov.scale
        big, mid, small = int(40 * s), int(24 * s), int(17 * s)
        ov.panel(pygame.Rect(0, 0, W, H), (8, 10, 16, 215), 0)  # the room behind, veiled
        # every line above the status and keys lines: in a short window (or with big text)
        # the title shrinks, the details go and the lines close up, before any line would
        # fall off the bottom
        n = max(1, len(shown.lines))
        top = int(36 * s) + big + int(30 * s)
        line_h = int(mid * 1.3 + small * 1.2)
        details = top + n * line_h <= H - int(80 * s)
        if not details:
            big = mid
            top = int(16 * s) + big + int(14 * s)
            line_h = min(int(mid * 1.4), (H - int(72 * s) - top) // n)
            mid = min(mid, int(line_h / 1.3))
        ov.text("Settings", (int(60 * s), top - big - int(14 * s if not details else 30 * s)),
                big, GOLD)
        x0, x1 = int(60 * s), W - int(60 * s)
        self.rects = []
        for i, (label, value, detail) in enumerate(shown.lines):
            y = top + i * line_h
            rect = pygame.Rect(x0 - 12, y, x1 - x0 + 24, line_h - 4)
            self.rects.append(rect)
            if i == shown.selected:
                ov.panel(rect, (60, 70, 100, 210), 8)
            ty = y + 2 if details else y + max(0, (line_h - 4 - int(mid * 1.2)) // 2)
            ov.text(label, (x0, ty), mid, INK)
            if value is not None:
                ov.text(f"◀ {value} ▶", (x1, ty), mid, GOLD, anchor="topright")
            if details:
                ov.text(detail, (x0 + int(16 * s), y + mid + 2), small, DIM)
        if shown.status:
            ov.text(shown.status, (W // 2, H - int(54 * s)), mid, GOLD, anchor="center")
        ov.text(shown.hint, (W // 2, H - int(24 * s)),
                int(18 * s), INK, anchor="center")
        ov.upload()
