"""Camera input, for play and the editor alike: drag, wheel, Q/E (a tap or held), the stick.

A mouse drag orbits the camera round the player (or the editor's cursor),
the wheel zooms, the orbit keys turn it: a tap a fixed step, held smoothly
for as long as it is held; a gamepad's right stick orbits too.  The scene
reads its events and hands this the orbit actions and the mouse's moves;
once a frame :meth:`CameraInput.spin` says how far to turn.
"""

from __future__ import annotations

ORBIT_SPEED = 1.8  #: radians per second while Q or E is held
TAP_STEP = 0.2618  #: a tap of Q or E turns the camera this far (15 degrees)
TAP_HOLD_S = 0.2  #: held longer than this, Q or E turns smoothly for as long as it is held
TAP_SPEED = 4.0  #: radians per second a tap's turn is played at
DRAG_YAW, DRAG_PITCH = 0.008, 0.006  #: radians per pixel of a mouse drag
WHEEL_ZOOM = 0.9  #: the distance's factor per step of the wheel
WARM_AFTER_S = 0.25  #: idle this long before a shader variant is warmed
ORBITS = ("orbit_left", "orbit_right")


class CameraInput:
    """The orbit keys held, a tap's turn still to play, a drag, the stick."""

    def __init__(self):
        self.held: set[str] = set()  #: the orbit actions whose keys are down
        self.dragging = False
        self.stick = 0.0  #: the gamepad's right stick across, -1..1: it orbits
        self._pressed: dict[str, tuple[float, float]] = {}  #: orbit key -> (when, yaw then)
        self._tap_left = 0.0  #: radians of a tap's turn still to play

    @property
    def busy(self) -> bool:
        """A key held or a drag under way (the camera may move any moment)."""
        return bool(self.held) or self.dragging

    def press(self, action: str, clock: float, yaw: float) -> None:
        """An orbit key pressed at ``clock`` with the camera at ``yaw``."""
        if action not in self.held:  # (a held key repeats: the first press counts)
            self._pressed[action] = (clock, yaw)
        self.held.add(action)

    def release(self, action: str, clock: float, yaw: float) -> None:
        """An orbit key released: after a tap, the turn is made up to one fixed step."""
        self.held.discard(action)
        pressed = self._pressed.pop(action, None)
        if pressed is None or clock - pressed[0] > TAP_HOLD_S:
            return  # held: it turned smoothly, and stops here
        sign = 1.0 if action == "orbit_left" else -1.0
        turned = yaw - pressed[1]
        self._tap_left += sign * TAP_STEP - turned

    @staticmethod
    def drag(sight, rel):
        """The sight after a mouse drag by ``rel`` pixels."""
        dx, dy = rel
        return sight.orbit(-dx * DRAG_YAW, dy * DRAG_PITCH)

    @staticmethod
    def wheel(sight, steps: float):
        """The sight after ``steps`` of the wheel (away: closer)."""
        return sight.zoomed_by(WHEEL_ZOOM ** steps)

    def spin(self, dt: float) -> float:
        """How far the camera turns in the next ``dt`` seconds (radians; left positive)."""
        spin = 0.0
        if "orbit_left" in self.held:
            spin += ORBIT_SPEED * dt
        if "orbit_right" in self.held:
            spin -= ORBIT_SPEED * dt
        if abs(self.stick) > 0.2:
            spin -= self.stick * ORBIT_SPEED * dt
        if self._tap_left:
            turn = min(abs(self._tap_left), TAP_SPEED * dt)
            turn = turn if self._tap_left > 0 else -turn
            self._tap_left -= turn
            if abs(self._tap_left) < 1e-9:
                self._tap_left = 0.0
            spin += turn
        return spin
