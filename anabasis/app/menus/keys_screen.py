"""The keys screen: every action the player can rebind, with its keys.

Opened from the launcher ("keys…").  Up/Down (Left/Right: the other
column) choose a line; Enter, Space or a click starts a rebind, and the
next key pressed becomes that action's key (Esc while waiting cancels).
A key another action had is moved, and the screen says so.
Delete/Backspace puts the chosen action back to its default keys; "reset
all" puts every one back; Esc (or "back") returns to the launcher.  (Those
are the menu's keys as the keymap has them: the screen names them as bound.)
It is drawn from one frozen value made each frame (:class:`KeysShown`), and
again only when that changes.

Every change goes straight into ``Progress.keys``, is saved (atomically)
and the app's keymap is rebuilt, so play uses it at once.  Esc always
goes back (it cancels here, and the keymap keeps it on "back") and Ctrl+Q
always quits (the loop takes it before any scene), so no binding can lock
the player in.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from anabasis.app.menus.menu import Menu
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

#: The keys line at the bottom, and the line while waiting for a key (``Keymap.text``).
HINT = "{menu_up}/{menu_down} choose · {choose} rebind · {default} default · {leave} back"
#: (While waiting every key is taken as it is: Esc, the key that is never bound, cancels.)
WAITING = "press the new key for {action} · {esc} cancels · a key another action has is moved"


@dataclass(frozen=True)
class KeysShown:
    """Everything the keys screen shows, made once a frame: drawn from this value alone."""

    size: tuple[int, int]
    scale: float
    #: each line: (its words, the keys shown, whether changed from the default) for an
    #: action; (its words, None, False) for "reset all" and "back"
    lines: tuple
    selected: int
    capturing: bool
    what: str  #: what the chosen line does (or what to press, while waiting)
    status: tuple  #: (text, kind) of the status line
    hint: str  #: the keys line at the bottom, each key as bound

    @classmethod
    def of(cls, screen, ov) -> KeysShown:
        keys = screen.app.keymap
        bound = screen.app.progress.keys
        lines = []
        for item in screen.items:
            if item in DEFAULT_KEYS:
                names = bound.get(item, [])
                lines.append((action_label(item),
                              ", ".join(key_label(n) for n in names) if names else "",
                              names != DEFAULT_KEYS[item]))
            else:
                lines.append((item, None, False))
        chosen = screen.items[screen.selected]
        if screen.capturing:
            what = WAITING.format(action=action_label(chosen),
                                  esc=key_label(FIXED_KEYS["back"]))
        else:
            what = WHAT.get(chosen, "")
        return cls(ov.size, ov.scale, tuple(lines), screen.selected, screen.capturing, what,
                   (screen.status, screen.status_kind), keys.text(HINT))


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
        # the menu's own keys as the keymap read them (before the game's: rebound steps work)
        if action == "choose":
            self.activate(self.selected)
        elif action == "leave":
            self.leave()
        elif action == "default":
            self.reset(self.items[self.selected])
        else:
            self.steer(action)

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
        shown = KeysShown.of(self, ov)
        if not ov.begin(shown):  # drawn from this value alone, again only when it changes
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
        half = (len(shown.lines) + 1) // 2
        line_h = min(int(mid * 1.6), (bottom - top) // half)
        self.rects = []
        for i, (words, bound, changed) in enumerate(shown.lines):
            c, r = divmod(i, half)
            x0 = margin + c * (col_w + gap)
            x1 = x0 + col_w
            y = top + r * line_h
            rect = pygame.Rect(x0 - 12, y, col_w + 24, line_h - 4)
            self.rects.append(rect)
            chosen = i == shown.selected
            if chosen:
                ov.panel(rect, (90, 70, 50, 220) if shown.capturing else (60, 70, 100, 210), 8)
            text_y = rect.centery
            if bound is not None:
                ov.text(words, (x0 + int(10 * s), text_y), mid, INK, anchor="midleft")
                if chosen and shown.capturing:
                    keys, colour = "press a key…", WARN
                elif bound:
                    keys, colour = bound, GOLD
                else:
                    keys, colour = "no key", DIM
                if changed and not (chosen and shown.capturing):
                    keys = "• " + keys  # changed from the default
                ov.text(keys, (x1, text_y), mid, colour, anchor="midright")
            else:
                ov.text(words, (x0 + int(10 * s), text_y), mid,
                        GOOD if words == RESET_ALL else INK, anchor="midleft")
        ov.text(shown.what, (W // 2, H - int(82 * s)), small, DIM, anchor="center")
        status, kind = shown.status
        if status:
            colour = {"warn": WARN, "dim": DIM}.get(kind, GOLD)
            ov.text(status, (W // 2, H - int(54 * s)), small + 2, colour, anchor="center")
        ov.text(shown.hint, (W // 2, H - int(26 * s)), int(19 * s), INK, anchor="center")
        ov.upload()
