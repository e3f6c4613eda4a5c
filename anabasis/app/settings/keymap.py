"""The keymap: the actions a player can rebind, their default keys, and how a key is shown.

The save file keeps the bindings (``Progress.keys``, pygame key names per
action); :func:`keymap` turns them into key codes for the loop, and
:func:`key_label` is how any screen writes a key's name.
"""

from __future__ import annotations

import sys

#: The actions a player can rebind, and their default keys (pygame key names).
DEFAULT_KEYS: dict[str, list[str]] = {
    "up": ["up", "w"],
    "down": ["down", "s"],
    "left": ["left", "a"],
    "right": ["right", "d"],
    "turn": ["v", "space"],
    "orbit_left": ["q"],
    "orbit_right": ["e"],
    "undo": ["z", "backspace"],
    "restart": ["r"],
    "back": ["escape"],
    "copy": ["c"],
    "screenshot": ["f12"],
    "help": ["h", "f1"],
    "hint": ["/", "?"],
    "fullscreen": ["f11"],
    "new_room": ["n"],
    "next": ["return", "enter"],
    "mute": ["m"],
    "volume_down": ["-", "[-]"],
    "volume_up": ["=", "[+]"],
    "slice_map": ["tab"],
    "step_marks": ["x"],
    "plan_view": ["p"],
    "settings": ["o", "f10"],
}

#: Esc always goes back (and Ctrl+Q always quits, in the loop): the keys screen
#: never binds Esc to anything else, so nobody can lock themselves out.
FIXED_KEYS: dict[str, str] = {"back": "escape"}

_SHOWN = {"return": "Enter", "enter": "Keypad Enter", "escape": "Esc"}


def key_label(name: str) -> str:
    """A pygame key name as the player reads it.

    >>> key_label("z"), key_label("return"), key_label("f12"), key_label("left shift")
    ('Z', 'Enter', 'F12', 'Left Shift')
    """
    if name in _SHOWN:
        return _SHOWN[name]
    return name.upper() if len(name) == 1 else name.title()



def keymap(bindings: dict[str, list[str]]) -> dict[int, str]:
    """Key codes to actions, from saved ``bindings`` (unknown key names are skipped, said).

    The keypad's Enter is "next" unless bound elsewhere, and Esc is always "back".
    """
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


def first_key(bindings: dict[str, list[str]], action: str) -> str:
    """The first key bound to ``action``, as the player reads it ("" for none)."""
    names = bindings.get(action) or []
    return key_label(names[0]) if names else ""
