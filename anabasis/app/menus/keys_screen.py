"""The keys screen: every action the player can rebind, with its keys.

Opened from the launcher ("keys…").  Up/Down (Left/Right: the other
column) choose a line; Enter, Space or a click starts a rebind, and the
next key pressed becomes that action's key (Esc while waiting cancels).
A key another action had is moved, and the screen says so.
Delete/Backspace puts the chosen action back to its default keys; "reset
all" puts every one back; Esc (or "back") returns to the launcher.

Every change goes straight into ``Progress.keys``, is saved (atomically)
and the app's keymap is rebuilt, so play uses it at once.  Esc always
goes back (it cancels here, and the keymap keeps it on "back") and Ctrl+Q
always quits (the loop takes it before any scene), so no binding can lock
the player in.
"""

from __future__ import annotations

import pygame

from anabasis.app.menus.menu import ARROWS, Menu
from anabasis.app.settings import keymap
from anabasis.app.settings.keymap import DEFAULT_KEYS, FIXED_KEYS, key_label
from anabasis.app.shell.overlay import DIM, GOLD, GOOD, INK, WARN

RESET_ALL = "reset all"
BACK = "back to the launcher"

#: What each action does, shown under the list for the chosen line (the keymap's words).
WHAT = {**{action: keymap.WHAT[action] for action in DEFAULT_KEYS},
        RESET_ALL: "every action back to its default keys",
        BACK: "the keys are already saved"}

#: Keys that are only half of a chord: waiting for a key, they are passed over, so that
#: Ctrl+Q still quits and does not bind Ctrl on its way.
_CHORD_KEYS = {pygame.K_LCTRL, pygame.K_RCTRL, pygame.K_LGUI, pygame.K_RGUI,
               pygame.K_LMETA, pygame.K_RMETA, pygame.K_MODE}

def action_label(action: str) -> str:
    """``orbit_left`` -> ``orbit left``."""
    return action.replace("_", " ")


class KeysScreen(Menu):
    """Rebinding the keys (a scene, like the launcher)."""

    name = "keys"

    def __init__(self, app, return_to: int = 0):
        self.app = app
        self.return_to = return_to  #: the launcher's selection to come back to
        self.items: list[str] = [*DEFAULT_KEYS, RESET_ALL, BACK]
        self.selected = 0
        self.capturing = False  #: waiting for the new key of the chosen action
        self.status = ""
        self.status_kind = "info"
        self.rects: list[pygame.Rect] = []

    # -- input ------------------------------------------------------------------------

    def handle(self, event, action: str | None = None) -> None:
        if event.type == pygame.KEYDOWN:
            if self.capturing:
                self._capture(event)
            else:
                self._key(event, action)
        elif self.capturing:
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self._cancel()  # a click is not a key: it cancels
        else:
            self.pointer_and_pad(event)

    def _key(self, event, action: str | None) -> None:
        key = event.key
        # the arrows, Enter and Esc mean what they say here, whatever they are bound to
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.activate(self.selected)
        elif key == pygame.K_ESCAPE:
            self.leave()
        elif key in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.reset(self.items[self.selected])
        else:
            self.steer(ARROWS.get(key) or action)

    def _capture(self, event) -> None:
        key = event.key
        if key == pygame.K_ESCAPE:
            self._cancel()
            return
        if key in _CHORD_KEYS or event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            return  # Ctrl+something is the loop's (Ctrl+Q); wait for a plain key
        name = pygame.key.name(key)
        if not name or name in FIXED_KEYS.values():
            self.say("that key cannot be bound: try another", "warn")
            return
        action = self.items[self.selected]
        self.capturing = False
        taken = self.app.progress.bind_key(action, name)
        self.app.keys_changed()
        self.say(self._moved(f"{action_label(action)}: {key_label(name)}", [name], taken))

    def _cancel(self) -> None:
        self.capturing = False
        self.say("nothing changed", "dim")

    def _moved(self, done: str, names: list[str], taken: list[str]) -> str:
        """The message for a change: what was bound, and what it was taken from."""
        progress = self.app.progress
        for other in taken:
            lost = [key_label(n) for n in names if n not in progress.keys[other]]
            done += f" · {', '.join(lost)} moved from {action_label(other)}"
            if not progress.keys[other]:
                done += " (now no key)"
        return done

    def _switch_column(self) -> None:
        half = (len(self.items) + 1) // 2
        i = self.selected + half if self.selected < half else self.selected - half
        self.selected = max(0, min(i, len(self.items) - 1))

    def say(self, text: str, kind: str = "info", seconds: float = 0.0) -> bool:
        """The status line (it stays till the next one)."""
        self.status, self.status_kind = text, kind
        return True

    def activate(self, i: int) -> None:
        """Enter (or a click) on line ``i``: wait for its new key, reset all, or leave."""
        item = self.items[i]
        if item == RESET_ALL:
            self.app.progress.reset_keys()
            self.app.keys_changed()
            self.say("every action is back to its default keys")
        elif item == BACK:
            self.leave()
        else:
            self.capturing = True
            self.say("")

    def reset(self, action: str) -> None:
        """Delete/Backspace: ``action`` back to its default keys."""
        if action not in DEFAULT_KEYS:
            return
        taken = self.app.progress.reset_keys(action)
        self.app.keys_changed()
        names = DEFAULT_KEYS[action]
        self.say(self._moved(f"{action_label(action)}: back to "
                              f"{', '.join(key_label(n) for n in names)}", names, taken))

    def leave(self) -> None:
        """Back to the launcher, on the line that opened this screen."""
        self.app.to_launcher(self.return_to)

    back = leave  # the pad's B button

    def update(self, dt: float) -> None:
        pass

    # -- drawing ----------------------------------------------------------------------

    def draw_gl(self, window) -> None:
        window.begin_scene()  # a dark backdrop, as in the launcher

    def draw_overlay(self, ov) -> None:
        keys = tuple((a, tuple(n)) for a, n in self.app.progress.keys.items())
        key = ("keys", ov.size, self.selected, self.capturing, self.status, keys)
        if not ov.begin(key):
            return
        W, H = ov.size
        s = ov.scale
        big, mid, small = int(54 * s), int(24 * s), int(18 * s)
        ov.text("KEYS", (int(60 * s), int(36 * s)), big, GOLD)
        ov.text("what each key does in a room; saved as soon as you change it;"
                " • marks a change from the default",
                (int(64 * s), int(36 * s) + big), small, DIM)
        top = int(36 * s) + big + int(40 * s)
        bottom = H - int(96 * s)  # room below for what the chosen line does, and the hint
        margin, gap = int(60 * s), int(50 * s)
        col_w = (W - 2 * margin - gap) // 2
        half = (len(self.items) + 1) // 2
        line_h = min(int(mid * 1.6), (bottom - top) // half)
        self.rects = []
        for i, item in enumerate(self.items):
            c, r = divmod(i, half)
            x0 = margin + c * (col_w + gap)
            x1 = x0 + col_w
            y = top + r * line_h
            rect = pygame.Rect(x0 - 12, y, col_w + 24, line_h - 4)
            self.rects.append(rect)
            chosen = i == self.selected
            if chosen:
                ov.panel(rect, (90, 70, 50, 220) if self.capturing else (60, 70, 100, 210), 8)
            text_y = rect.centery
            if item in DEFAULT_KEYS:
                ov.text(action_label(item), (x0 + int(10 * s), text_y), mid, INK,
                        anchor="midleft")
                names = self.app.progress.keys.get(item, [])
                if chosen and self.capturing:
                    shown, colour = "press a key…", WARN
                elif names:
                    shown, colour = ", ".join(key_label(n) for n in names), GOLD
                else:
                    shown, colour = "no key", DIM
                if names != DEFAULT_KEYS[item] and not (chosen and self.capturing):
                    shown = "• " + shown  # changed from the default
                ov.text(shown, (x1, text_y), mid, colour, anchor="midright")
            else:
                ov.text(item, (x0 + int(10 * s), text_y), mid, GOOD if item == RESET_ALL else INK,
                        anchor="midleft")
        chosen = self.items[self.selected]
        if self.capturing:
            what = (f"press the new key for {action_label(chosen)} · Esc cancels"
                    " · a key another action has is moved")
        else:
            what = WHAT.get(chosen, "")
        ov.text(what, (W // 2, H - int(82 * s)), small, DIM, anchor="center")
        if self.status:
            colour = {"warn": WARN, "dim": DIM}.get(self.status_kind, GOLD)
            ov.text(self.status, (W // 2, H - int(54 * s)), small + 2, colour, anchor="center")
        hint = "Up/Down choose · Enter rebind · Delete default · Esc back"
        ov.text(hint, (W // 2, H - int(26 * s)), int(19 * s), INK, anchor="center")
        ov.upload()
