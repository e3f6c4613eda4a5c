"""Sound effects through ``pygame.mixer``, at the player's volume; silent where there is no device.

The effects are the WAV files in ``assets/sounds/`` (written by
``assets/make_sounds.py``), one per event of play: :data:`EFFECTS`.  The
game asks for an effect by name (:meth:`Sounds.play`); the volume and mute
are the player's (saved with the progress, changed with M and - / =).

Where no audio device opens (CI, Xvfb, a machine without sound,
``SDL_AUDIODRIVER=dummy`` or ``none``) the game plays on in silence and
says nothing: a missing device is not an error.  The audio libraries'
own complaints while the mixer tries its drivers (ALSA writes them straight
to the process's stderr) are kept off the terminal.
"""

from __future__ import annotations

import io
import os
import sys
from collections import deque
from contextlib import contextmanager

import pygame

#: Every effect, by name: a step, a bump (a step that is not a move), a push, a crate
#: landing in a gap, a slip kata, a ramp carrying you ana, falling out, undo, restart, the win;
#: and the hook's: thrown, caught, and come back empty.
EFFECTS = ("step", "bump", "push", "land", "slip", "ramp", "fall", "undo", "restart", "win",
           "throw", "catch", "miss")

VOLUME_STEP = 0.1  #: what one press of - or = changes the volume by
DEFAULT_VOLUME = 0.7


class Sounds:
    """The effects, loaded once; :meth:`play` is safe to call whether or not there is sound."""

    def __init__(self, volume: float = DEFAULT_VOLUME, muted: bool = False):
        self.volume = clamp(volume)
        self.muted = muted
        #: the effects asked for, latest last, heard or not (what the tests read)
        self.played: deque[str] = deque(maxlen=64)
        self._opened = False  #: this object started the mixer (and stops it on close)
        self._effects: dict[str, pygame.mixer.Sound] = {}
        self.available = self._open()

    def _open(self) -> bool:
        """Start the mixer and load the effects; False (silent) where that cannot be done."""
        try:
            if not pygame.mixer.get_init():
                # a small buffer: an effect starts within ~12 ms of its move
                pygame.mixer.pre_init(44100, -16, 2, 512)
                with _stderr_hushed():
                    pygame.mixer.init()
                self._opened = True
        except (pygame.error, NotImplementedError, OSError):
            return False  # no device, or a pygame without its mixer: silence, not an error
        from anabasis.app.shell import assets

        for name in EFFECTS:
            try:
                self._effects[name] = pygame.mixer.Sound(file=io.BytesIO(assets.sound_bytes(name)))
            except (OSError, pygame.error):
                continue  # a missing file costs that one effect, never the game
        return True

    def play(self, name: str) -> None:
        """Play the effect ``name`` (one of :data:`EFFECTS`) at the player's volume."""
        if name not in EFFECTS:
            raise KeyError(name)
        self.played.append(name)
        effect = self._effects.get(name)
        if effect is None or self.muted or self.volume <= 0:
            return
        try:
            effect.set_volume(self.volume)
            effect.play()
        except pygame.error:  # the mixer was closed under it (another window's): silence
            self._effects.clear()

    def set_volume(self, volume: float) -> None:
        self.volume = clamp(volume)

    def close(self) -> None:
        """Stop the mixer if this object started it (again does nothing)."""
        self._effects.clear()
        if self._opened:
            self._opened = False
            try:
                pygame.mixer.quit()
            except pygame.error:
                pass


def clamp(volume: float) -> float:
    """A volume kept in 0..1, rounded to the step (so ten presses always reach the end).

    >>> clamp(1.3), clamp(-0.2), clamp(0.7000001)
    (1.0, 0.0, 0.7)
    """
    return round(min(1.0, max(0.0, float(volume))), 2)


@contextmanager
def _stderr_hushed():
    """Send file descriptor 2 to the null device for a moment (C libraries write there)."""
    try:
        sys.stderr.flush()
    except (AttributeError, ValueError, OSError):
        pass
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to hush
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
