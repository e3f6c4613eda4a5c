"""What the menus share: a list of lines (in two columns in the launcher and the keys screen).

Keys arrive as the keymap's actions, read where :data:`MENU` says (the
menus' own steps, ``choose``, ``leave``, then the game's).  A subclass keeps
``items``, ``selected`` and ``rects`` (the lines' places on
screen, set as it draws), and says how Left/Right switch columns
(:meth:`Menu._switch_column`), what a line does (:meth:`Menu.activate`) and,
if anything, what the pad's B button does (:meth:`Menu.back`).  The mouse,
the wheel and a gamepad's d-pad and buttons then work the same in both.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from anabasis.app.settings.keymap import MENU
from anabasis.app.shell.scene import Scene

#: The menus' own steps (the keymap's, read before the game's) as the game's steps.
STEPS = {"menu_up": "up", "menu_down": "down", "menu_left": "left", "menu_right": "right"}
_PAD_SIDEWAYS = (pygame.CONTROLLER_BUTTON_DPAD_LEFT, pygame.CONTROLLER_BUTTON_DPAD_RIGHT)
_PAD_CHOOSE = (pygame.CONTROLLER_BUTTON_A, pygame.CONTROLLER_BUTTON_START)


@dataclass(frozen=True)
class MenuShown:
    """What a plain menu (the settings, "make a room…") shows, made once a frame: it is
    drawn from this value alone, and again only when it changes."""

    size: tuple[int, int]
    scale: float
    lines: tuple  #: each line as the screen shows it (a tuple of its texts)
    selected: int
    status: str  #: the status (or error) line
    hint: str  #: the keys line at the bottom, each key as bound
    note: str = ""  #: a line under the list (keys written in), if any


class Menu(Scene):
    keys = MENU  #: the keymap reads the menus' own keys first (then the game's steps)
    items: list
    selected: int
    rects: list[pygame.Rect]

    def activate(self, i: int) -> None:
        raise NotImplementedError

    def back(self) -> None:
        """The pad's B button (nothing, unless a screen says otherwise)."""

    def _switch_column(self) -> None:
        raise NotImplementedError

    def _move(self, d: int) -> None:
        self.selected = (self.selected + d) % len(self.items)

    def _hit(self, pos) -> int | None:
        for i, rect in enumerate(self.rects):
            if rect.collidepoint(pos):
                return i
        return None

    def steer(self, action: str | None) -> bool:
        """Up/Down choose a line, Left/Right switch columns (the menu's steps, or the game's
        where they are bound elsewhere); False for any other action."""
        action = STEPS.get(action, action)
        if action == "up":
            self._move(-1)
        elif action == "down":
            self._move(+1)
        elif action in ("left", "right"):
            self._switch_column()
        else:
            return False
        return True

    def pointer_and_pad(self, event) -> None:
        """The mouse (hover selects, a click opens), the wheel, and a gamepad."""
        t = event.type
        if t == pygame.MOUSEMOTION:
            i = self._hit(event.pos)
            if i is not None:
                self.selected = i
        elif t == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self._hit(event.pos)
            if i is not None:
                self.selected = i
                self.activate(i)
        elif t == pygame.MOUSEWHEEL:
            self._move(-event.y)
        elif t == pygame.CONTROLLERBUTTONDOWN:
            button = event.button
            if button == pygame.CONTROLLER_BUTTON_DPAD_UP:
                self._move(-1)
            elif button == pygame.CONTROLLER_BUTTON_DPAD_DOWN:
                self._move(+1)
            elif button in _PAD_SIDEWAYS:
                self._switch_column()
            elif button in _PAD_CHOOSE:
                self.activate(self.selected)
            elif button == pygame.CONTROLLER_BUTTON_B:
                self.back()
