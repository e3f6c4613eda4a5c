"""What the app asks of whatever is on screen: the launcher, the keys screen, a room, the editor.

:class:`~anabasis.app.shell.loop.Loop` holds one scene and switches scenes in one
place (``Loop.switch``; :mod:`anabasis.app.routes` says which follows
which); each frame it hands the scene the events (:meth:`Scene.handle`),
the time (:meth:`Scene.update`) and the two drawing passes
(:meth:`Scene.draw_gl`, the 3D scene into the internal target;
:meth:`Scene.draw_overlay`, the 2D layer over it).  The rest has defaults,
so a new scene writes only what it does.
"""

from __future__ import annotations


class Scene:
    """A screen of the game.  Subclasses override what they use."""

    name = "scene"
    #: True while the scene takes every key as it is (the keys screen waiting for a key):
    #: the app then reads no action (fullscreen, screenshot) from it
    capturing = False
    #: where the keymap reads this scene's keys (``keymap.WHERES``): ``"game"`` (play),
    #: ``"editor"``, ``"menu"`` (the launcher, the keys screen) or ``"field"`` (a line of text
    #: being typed); a scene may say so by a property, as it changes
    keys = "game"
    #: the level on screen (1-based), if any: the launcher opens on it when the scene is left
    level: int | None = None

    def handle(self, event, action: str | None = None) -> None:
        """One pygame event; for a key, ``action`` is what the keymap says it is (None:
        nothing, or the scene is ``capturing``)."""

    def update(self, dt: float) -> None:
        """``dt`` seconds have passed."""

    def draw_gl(self, window) -> bool:
        """The 3D scene into the window's internal target (default: a dark backdrop); True
        if it compiled a shader variant this frame (the loop leaves that frame's timing out
        of the dynamic resolution)."""
        window.begin_scene()
        return False

    def draw_overlay(self, ov) -> None:
        """The 2D layer over it, through the :class:`~anabasis.app.shell.overlay.Overlay`."""

    def say(self, text: str, kind: str = "info", seconds: float = 3.0) -> bool:
        """Show the player a line (``kind``: "info", "warn", "dim"); False where it can't."""
        return False

    def play_moves(self, moves) -> None:
        """Moves to play in turn (the demo's solution, found off-thread); most scenes have none."""
