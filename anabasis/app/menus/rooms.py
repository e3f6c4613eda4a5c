"""What "make a room…" offers: a new room, or one of the player's saved rooms, to edit.

The saved rooms are the level files in the data folder's ``rooms`` (where
the editor saves), newest first, each under its name.  A file the format
refuses is listed with the reason in plain words, and not opened.  Up/Down
(or the mouse) choose, Enter or a click opens, Esc goes back to the
launcher on "make a room…".
"""

from __future__ import annotations

import pygame

from anabasis.app.menus.menu import Menu, MenuShown
from anabasis.app.settings.rooms import Saved, rooms_dir, saved_rooms
from anabasis.app.shell.overlay import DIM, GOLD, INK, WARN

#: The keys line at the bottom (each ``{action}`` written as its key).
HINT = "{menu_up}/{menu_down} choose · {choose} open · {leave} back"
#: Said under the list while no room is saved.
EMPTY = "no saved rooms yet: {save} in the editor saves one here"


class RoomsMenu(Menu):
    """A new room, or a saved one."""

    name = "rooms"

    def __init__(self, app):
        self.app = app
        self.folder = rooms_dir(app)
        self.items = [Saved("a new room", None, "an empty room of 5 x 4 x 3 x 3")]
        self.items += saved_rooms(self.folder)
        self.selected = 0
        self.rects: list[pygame.Rect] = []
        self.error = ""

    def handle(self, event, action: str | None = None) -> None:
        if event.type == pygame.KEYDOWN:
            # the menu's own keys, as the keymap read them; rebound steps work too
            if self.steer(action):
                self.error = ""
            elif action == "choose":
                self.activate(self.selected)
            elif action == "leave":
                self.back()
        else:
            self.pointer_and_pad(event)

    def _switch_column(self) -> None:
        pass

    def back(self) -> None:
        self.app.to_launcher_on(("edit",))

    def activate(self, i: int) -> None:
        item = self.items[i]
        if item.error:
            self.error = f"{item.label} cannot be opened: {item.error}"
            return
        if item.path is None:
            self.app.edit()
            return
        refused = self.app.edit_saved(item.path)  # (changed or gone since the list was made)
        if refused:
            self.error = f"{item.label} cannot be opened: {refused}"

    def say(self, text: str, kind: str = "info", seconds: float = 0.0) -> bool:
        self.error = text
        return True

    def draw_overlay(self, ov) -> None:
        shown = MenuShown(ov.size, ov.scale,
                          tuple((item.label, item.detail, item.error) for item in self.items),
                          self.selected, self.error, self.app.keymap.text(HINT),
                          self.app.keymap.text(EMPTY) if len(self.items) == 1 else "")
        if not ov.begin(shown):  # drawn from this value alone, again only when it changes
            return
        W, H = ov.size
        s = ov.scale
        big, mid, small = int(40 * s), int(24 * s), int(17 * s)
        x = int(60 * s)
        ov.text("Make a room", (x, int(30 * s)), big, GOLD)
        ov.text(f"a new one, or one of yours (saved in {self.folder})",
                (x + 4, int(30 * s) + big), small, DIM)
        top = int(30 * s) + big + int(36 * s)
        line_h = int(mid * 1.3 + small * 1.1)
        rows = max(1, (H - top - int(70 * s)) // line_h)
        lines = shown.lines
        first = max(0, min(shown.selected - rows + 1, len(lines) - rows))
        self.rects = [pygame.Rect(0, 0, 0, 0)] * len(lines)
        for k, (label, detail, error) in enumerate(lines[first:first + rows]):
            i = first + k
            y = top + k * line_h
            rect = pygame.Rect(x - 12, y, W - 2 * x + 24, line_h - 4)
            self.rects[i] = rect
            if i == shown.selected:
                ov.panel(rect, (60, 70, 100, 210), 8)
            ov.text(label, (x + 10, y + 2), mid, WARN if error else INK)
            detail = error or detail
            if detail:
                ov.text(detail[:110], (x + 24, y + mid + 2), small, DIM)
        if shown.note:
            ov.text(shown.note,
                    (x + 10, top + line_h + 6), small, DIM)
        if shown.status:
            ov.text(shown.status[:120], (W // 2, H - int(50 * s)), small, WARN, anchor="center")
        ov.text(shown.hint, (W // 2, H - int(24 * s)),
                int(19 * s), INK, anchor="center")
        ov.upload()

