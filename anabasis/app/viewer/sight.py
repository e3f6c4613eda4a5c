"""How the player looks at the room: the view, a turn under way, the camera.

Tatham's ``game_ui``: the player would not expect undo to bring any of it
back, so it lives apart from the game's state, as one small value; each
change makes a new one (a frozen dataclass, like the camera it holds).

>>> s = Sight("stand").turned()
>>> s.turning, s.turn_from, s.view
(True, 'stand', 'w-up')
>>> s = s.advanced(TURN_S)
>>> s.turning, s.view
(False, 'w-up')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from anabasis.picture import views

TURN_S = 0.4  #: a view turn, in seconds


def smooth(t: float) -> float:
    """Ease in and out, so a turn starts and stops gently."""
    t = min(max(t, 0.0), 1.0)
    return t * t * (3 - 2 * t)


@dataclass(frozen=True)
class Sight:
    view: str = "stand"
    camera: views.Camera = field(default_factory=views.Camera)
    turn_from: str | None = None  #: the view a turn started from, while it plays
    turn_t: float = 0.0  #: how far into the turn, 0..1
    zoomed: bool = False  #: the player set the distance (wheel): turns keep it
    #: the camera's (distance, target) from, to, over a turn
    zoom: tuple[tuple, tuple] | None = None
    #: the camera's (yaw, fov) from, to, over a turn (into or out of w up, where the room's
    #: own yaw and field of view differ: views.room_yaw, room_fov)
    swing: tuple[tuple, tuple] | None = None

    @property
    def turning(self) -> bool:
        return self.turn_from is not None

    @property
    def hidden(self) -> int:
        """The 4D axis the view hides (a move never runs mid-turn, so the view is at rest)."""
        return views.hidden_axis(self.view)

    def basis(self) -> np.ndarray:
        """The slice's basis: mid-turn, the slerped one."""
        if self.turning:
            return views.turn(self.turn_from, self.view, smooth(self.turn_t))
        return views.view_basis(self.view)

    def orbit(self, yaw: float, pitch: float = 0.0) -> Sight:
        return replace(self, camera=self.camera.orbit(yaw, pitch))

    def zoomed_by(self, factor: float) -> Sight:
        """The wheel: the player's distance from now on, not the framing's."""
        return replace(self, camera=self.camera.zoom(factor), zoomed=True, zoom=None)

    def turned(self, framing: views.Camera | float | None = None) -> Sight:
        """A turn to the next view begun.  ``framing``: the camera that shows the room in the
        new view (or only its distance: the aim stays); the camera's distance and aim move to
        it over the turn unless the player zoomed.

        >>> s = Sight("stand").turned(12.0).advanced(10.0)
        >>> (s.view, s.camera.distance, s.camera.target)
        ('w-up', 12.0, (0.0, 0.0, 0.0))
        """
        if isinstance(framing, (int, float)):
            framing = replace(self.camera, distance=float(framing))
        zoom = swing = None
        if framing is not None and not self.zoomed:
            zoom = ((self.camera.distance, self.camera.target), (framing.distance, framing.target))
        if framing is not None and (framing.yaw, framing.fov) != (self.camera.yaw,
                                                                  self.camera.fov):
            swing = ((self.camera.yaw, self.camera.fov), (framing.yaw, framing.fov))
        return replace(self, turn_from=self.view, view=views.next_view(self.view), turn_t=0.0,
                       zoom=zoom, swing=swing)

    def advanced(self, dt: float) -> Sight:
        """``dt`` seconds later: the turn (and its zoom and swing) further on, or over."""
        if not self.turning:
            return self
        t = self.turn_t + dt / TURN_S
        camera = self.camera
        k = smooth(min(t, 1.0))
        if self.zoom is not None:
            (da, ta), (db, tb) = self.zoom
            camera = replace(camera, distance=da + (db - da) * k,
                             target=tuple(a + (b - a) * k for a, b in zip(ta, tb, strict=True)))
        if self.swing is not None:
            (ya, fa), (yb, fb) = self.swing
            camera = replace(camera, yaw=ya + (yb - ya) * k, fov=fa + (fb - fa) * k)
        if t >= 1.0:
            return replace(self, camera=camera, turn_from=None, turn_t=0.0, zoom=None,
                           swing=None)
        return replace(self, camera=camera, turn_t=t)

    def frame(self, pose):
        """The renderer's pose for the movers ``pose`` (an ``animation.Movers``) seen this way."""
        return self.frame_at(pose.player, pose.moving)

    def frame_at(self, player, moving=None):
        """The renderer's pose centred on ``player`` (the editor: its cursor) seen this way,
        a turn under way included; ``moving``: a crate drawn apart, as it slides."""
        from anabasis.picture.render import Pose as Frame  # imported by now: the renderer needs it

        turning = self.turning
        return Frame(
            player=tuple(float(c) for c in player),
            view=self.turn_from if turning else self.view,
            toward=self.view if turning else None,
            turn=smooth(self.turn_t) if turning else 0.0,
            camera=self.camera,
            moving_crate=moving,
        )
