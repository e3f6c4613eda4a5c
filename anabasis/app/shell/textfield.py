"""A line of text being typed: the launcher's room code, the editor's name and lesson.

SDL's text input types the characters (:data:`pygame.TEXTINPUT`); the
field takes those and the keymap's field actions (``field_erase``,
``field_done``, ``field_cancel``, ``paste``: Backspace, Enter, Esc and
Ctrl+V by default), and says what happened: the scene decides what done
and cancel do.  A field opened
by a letter key can pass over that letter (SDL may type it in the same
frame), and one opened on old text shows it selected: typing replaces it.
"""

from __future__ import annotations

import pygame

EDITED, ENTER, CANCEL = "edited", "enter", "cancel"


class TextField:
    """The text typed so far, and whether the old text is shown selected (``fresh``)."""

    def __init__(self, text: str = "", *, fresh: bool = False, opener: tuple | None = None,
                 paste=None):
        self.text = text
        self.fresh = fresh  #: the old text is shown selected: typing replaces it
        self._opener = opener  #: (the letter that opened it, the frame): not part of it
        self._paste = paste  #: a function giving the clipboard's text (None: no Ctrl+V)
        pygame.key.start_text_input()

    def close(self) -> None:
        pygame.key.stop_text_input()

    def handle(self, event, frame: int = 0, action: str | None = None) -> str | None:
        """One event (a key's ``action`` as the keymap read it, in a field): :data:`EDITED`,
        :data:`ENTER`, :data:`CANCEL`, ``"pasted"``, ``"no-paste"`` (a paste with nothing on
        the clipboard) or None (nothing it takes)."""
        if event.type == pygame.TEXTINPUT:
            if self._opener is not None and self._opener == (event.text.lower(), frame):
                self._opener = None  # the letter that opened the field: not part of it
                return None
            if self.fresh:
                self.text, self.fresh = "", False
            self.text += "".join(ch for ch in event.text if ch.isprintable())
            return EDITED
        if event.type != pygame.KEYDOWN:
            return None
        if action == "field_cancel":
            return CANCEL
        if action == "field_done":
            return ENTER
        if action == "field_erase":
            self.text = "" if self.fresh else self.text[:-1]
            self.fresh = False
            return EDITED
        if self._paste is not None and action == "paste":
            pasted = self._paste()
            if pasted is None:
                return "no-paste"
            self.text += pasted.strip()
            return "pasted"
        return None
