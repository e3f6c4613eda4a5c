"""Playing a room: input to moves, moves to animations, views and their turns.

The scene owns the UI state (the view, the turn, the camera, the animation,
the messages) and the engine's game (the state and its undo stack); undo
never has to know about the camera, and the engine never about the screen.

Input is a queue of actions.  An action waits while a turn plays ("input
during a turn is queued"), and a move waits for the animation before it;
when several are waiting the animation plays faster, so fast typing never
falls far behind.  Undo and restart don't wait: they finish the animation
at once and act.
"""

from __future__ import annotations

import sys
from collections import deque
from dataclasses import replace
from functools import cache

import numpy as np
import pygame

from anabasis.app import animation, hud
from anabasis.app.session import Opened
from anabasis.app.window import FADE_PART, TURN_PART
from anabasis.engine import rules
from anabasis.picture import views

#: What the game says when an arrow would step in w (the design's own words).
W_MESSAGE = "you can't step in w: gravity takes you kata, only a ramp takes you ana"

#: What the game says when the player fell out (and the move is undone).
LOSS_MESSAGE = "you fell out of the world: the move is undone"

#: What each view shows, said after the first few turns of a session.
VIEW_TIPS = {
    "stand": "stand: z is up and w is hidden; blue on the floor marks the block kata of you",
    "w-up": "w up: w is drawn as up and z is hidden; the block kata of you is your floor",
    "both": "both downs: z up, w along the floor, y hidden; an arrow along w moves nothing",
}
VIEW_TIPS_PER_SESSION = 4

TURN_S = 0.4  #: a view turn, in seconds
ORBIT_SPEED = 1.8  #: radians per second while Q or E is held
DRAG_YAW, DRAG_PITCH = 0.008, 0.006  #: radians per pixel of a mouse drag
MESSAGE_S = 3.0
WARM_AFTER_S = 0.25  #: idle this long before a shader variant is warmed

ARROWS = ("up", "down", "left", "right")


@cache
def hidden_axis(view: str) -> int:
    """The 4D axis (0..3) that ``view`` hides at rest: w in stand, z in w-up, y in both."""
    return views.axis_of(views.view_basis(view)[:, 3])[0]


def smooth(t: float) -> float:
    """Ease in and out, so a turn starts and stops gently."""
    t = min(max(t, 0.0), 1.0)
    return t * t * (3 - 2 * t)


class Play:
    """A room being played."""

    name = "play"

    def __init__(self, app, opened: Opened, demo_moves=None):
        self.app = app
        self.opened = opened
        self.room = opened.room
        self.game = rules.Game(self.room)  #: the state, the moves and the undo stack
        self.view = self.room.view if self.room.view in views.VIEWS else "stand"
        self.turn_from: str | None = None
        self.turn_t = 0.0
        self.zoomed = False  #: the player set the distance (wheel): turns keep it
        self._zoom: tuple[float, float] | None = None  #: distance from, to, over a turn
        self.camera = self._framing_camera(app)
        self.queue: deque = deque()
        self.timeline: animation.Timeline | None = None
        self.anim_t = 0.0
        self.anim_status = "playing"
        self._loss_text = ""
        self.message = ""
        self.message_left = 0.0
        self.message_kind = "info"
        self.won = self.game.status == "won"
        self.new_best = False
        self.help = False
        self.held: set[str] = set()
        self.dragging = False
        self._stick = 0.0  #: the gamepad's right stick across, -1..1: it orbits
        self.demo = demo_moves is not None
        self.w_refusals = 0
        self.clock = 0.0
        self.renderer = app.renderer_for(self.room)
        self._last_input = 0.0
        self._warm = self._warm_poses() if self.renderer is not None else []
        self._uploaded = None
        self._drawn = None  #: what the internal target holds: the key of the last room drawn
        self._pose_key: tuple | None = None  #: what the cached pose was made from
        self._pose: animation.Pose | None = None
        self._upload(self.game.state)
        if self.demo:
            self.queue.extend(("move", m) for m in demo_moves)
        elif opened.level == 1 and opened.key not in app.progress.solved:
            self.say("V turns your sight · H shows every key", "info", 6.0)

    def _framing_camera(self, app) -> views.Camera:
        """The camera a room opens with: near enough to see the whole room round the player."""
        return views.Camera(distance=self._framing_distance(app, self.view, views.Camera()))

    def _framing_distance(self, app, view: str, camera: views.Camera) -> float:
        """How far back ``camera`` (its yaw and pitch) must be to show the room in ``view``."""
        w, h = app.window.scene_size
        fitted = views.fit_camera(camera, views.view_basis(view), self.room.size,
                                  self.game.state.player, aspect=w / h)
        # never closer than the default: a tiny room still shows its surroundings
        return max(fitted.distance, views.Camera().distance)

    # -- state --------------------------------------------------------------------

    @property
    def state(self):
        return self.game.state

    @property
    def turning(self) -> bool:
        return self.turn_from is not None

    @property
    def animating(self) -> bool:
        return self.timeline is not None

    @property
    def busy(self) -> bool:
        """True while a turn or an animation plays (tests step frames until it is False)."""
        return self.turning or self.animating or bool(self.queue)

    def basis(self) -> np.ndarray:
        """The slice's basis this frame: mid-turn, the slerped one."""
        if self.turning:
            return views.turn(self.turn_from, self.view, smooth(self.turn_t))
        return views.view_basis(self.view)

    def pose(self) -> animation.Pose:
        """The movers as drawn now (made once a frame: the room and the HUD both read it)."""
        key = (self.timeline, self.anim_t, self.game.state)
        if key != self._pose_key:
            self._pose_key = key
            self._pose = (self.timeline.pose(self.anim_t) if self.timeline is not None
                          else animation.still(self.game.state))
        return self._pose

    def say(self, text: str, kind: str = "info", seconds: float = MESSAGE_S) -> None:
        self.message, self.message_kind, self.message_left = text, kind, seconds

    # -- input ----------------------------------------------------------------------

    def handle(self, event) -> None:
        t = event.type
        self._last_input = self.clock
        if t == pygame.KEYDOWN:
            self._key(self.app.action_for(event.key), event)
        elif t == pygame.KEYUP:
            action = self.app.action_for(event.key)
            if action in ("orbit_left", "orbit_right"):
                self.held.discard(action)
        elif t == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.dragging = True
        elif t == pygame.MOUSEBUTTONUP and event.button in (1, 3):
            self.dragging = False
        elif t == pygame.MOUSEMOTION and self.dragging:
            dx, dy = event.rel
            self.camera = self.camera.orbit(-dx * DRAG_YAW, dy * DRAG_PITCH)
        elif t == pygame.MOUSEWHEEL:
            self.camera = self.camera.zoom(0.9 ** event.y)
            self.zoomed = True  # the player's distance from now on, not the framing's
            self._zoom = None
        elif t == pygame.CONTROLLERBUTTONDOWN:
            self._key(_PAD.get(event.button), event)
        elif t == pygame.CONTROLLERBUTTONUP:
            if _PAD.get(event.button) in ("orbit_left", "orbit_right"):
                self.held.discard(_PAD[event.button])
        elif t == pygame.CONTROLLERAXISMOTION:
            if event.axis == pygame.CONTROLLER_AXIS_RIGHTX:
                self._stick = event.value / 32768.0

    def _key(self, action, event) -> None:
        if action is None:
            return
        if self.demo and action not in ("back", "help"):
            return  # the demo plays itself: only leaving it is the player's
        if self.help and action not in ("help", "fullscreen", "screenshot"):
            self.help = False  # any key closes the help
            return
        if action in ARROWS:
            if self.won:
                return
            self.queue.append(("arrow", action))
        elif action == "turn":
            self.queue.append(("turn",))
        elif action in ("orbit_left", "orbit_right"):
            self.held.add(action)
        elif action == "undo":
            self.undo()
        elif action == "restart":
            self.restart()
        elif action == "back":
            self.app.to_launcher()
        elif action == "copy":
            self.copy_code()
        elif action == "help":
            self.help = not self.help
        elif action == "next" and self.won:
            self.app.next_after(self.opened)
        elif action == "new_room" and self.opened.tier:
            self.app.build_room(self.opened.tier)

    # -- acting -----------------------------------------------------------------------

    def _finish_animation(self) -> None:
        if self.timeline is not None:
            self.anim_t = self.timeline.total
            self._animation_done()

    def undo(self) -> bool:
        """Z: one state back, any number of times."""
        self._finish_animation()
        self.queue = deque(a for a in self.queue if a[0] == "turn")
        if self.game.undo():
            self.won = self.game.status == "won"
            self._upload(self.game.state)
            self.say("undone", "dim", 0.8)
            return True
        self.say("nothing to undo", "dim", 1.2)
        return False

    def restart(self) -> bool:
        """R: back to the start (undo brings the moves back)."""
        self._finish_animation()
        self.queue.clear()
        if self.game.restart():
            self.won = self.game.status == "won"
            self._upload(self.game.state)
            self.say("restarted (Z undoes it)", "dim", 1.5)
            return True
        return False

    def copy_code(self) -> None:
        code = self.opened.code
        if code is None:
            self.say("this room has no code", "warn")
            return
        if self.app.copy(code):
            self.say(f"room code copied: {code}")
        else:
            print(f"room code: {code}", flush=True)
            self.say(f"no clipboard here; the code is printed: {code}", "warn", 6.0)

    def arrow(self, arrow: str) -> str | None:
        """An arrow key at rest: the step it means on screen, played; or the w message."""
        move = views.arrow_to_move(self.basis(), self.camera.yaw, arrow)
        if move == "w":
            self.w_refusals += 1
            self.say(W_MESSAGE, "warn")
            return None
        if move not in "RLDU":
            return None  # 'z' only mid-turn, and moves never run mid-turn
        self.move(move)
        return move

    def move(self, move: str) -> bool:
        """Play one move through the engine and start its animation."""
        before = self.game.state
        result = self.game.play(move)
        if not result.moved:
            return False
        frames = tuple(result.frames) or (result.state,)
        lost = result.status == "lost"
        # with w hidden a slip swaps the whole slice: slow enough to watch it go
        # (a move never runs mid-turn, so the view is at rest)
        w_hidden = hidden_axis(self.view) == 3
        segments = animation.segments_for(
            before, frames, lost, animation.SLIP_S if w_hidden else animation.FALL_S)
        if not segments:
            self._upload(self.game.state)
            return True
        W = self.room.size[3]
        self.timeline = animation.Timeline(segments, W, self.room.wrap)
        self.anim_t = 0.0
        self.anim_status = result.status
        self._loss_text = _loss_text(frames[-1].player, self.room, w_hidden) if lost else ""
        return True

    def _animation_done(self) -> None:
        status = self.anim_status
        self.timeline = None
        self.anim_status = "playing"
        if status == "lost":
            # the engine never took the losing move: show where we were
            self._upload(self.game.state)
            self.say(self._loss_text or LOSS_MESSAGE, "warn", 4.0)
        else:
            self._upload(self.game.state)
            if status == "won" or self.game.status == "won":
                self._win()

    def _win(self) -> None:
        self.won = True
        self.queue.clear()
        self.message_left = 0.0  # the win panel speaks now; an old message would sit under it
        moves = self.game.moves
        if self.demo:
            # the demo's win is the solver's, not the player's: nothing is recorded
            self.app.demo_won(moves, self.opened.par)
            return
        self.new_best = self.app.progress.record(self.opened.key, moves)
        self.app.save_progress()

    def start_turn(self) -> None:
        self.turn_from = self.view
        self.view = views.next_view(self.view)
        self.turn_t = 0.0
        # the room spans other axes in the new view: frame it again, over the turn,
        # unless the player chose a distance with the wheel
        self._zoom = None
        if not self.zoomed:
            target = self._framing_distance(self.app, self.view, self.camera)
            if abs(target - self.camera.distance) > 0.1:
                self._zoom = (self.camera.distance, target)

    def _view_tip(self) -> None:
        """The first few turns of a session say what the new view shows."""
        if self.demo or self.app.view_tips <= 0 or self.queue:
            return
        self.app.view_tips -= 1
        self.say(VIEW_TIPS[self.view], "info", 4.0)

    # -- time ---------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.message_left > 0:
            self.message_left -= dt
        spin = 0.0
        if "orbit_left" in self.held:
            spin += ORBIT_SPEED * dt
        if "orbit_right" in self.held:
            spin -= ORBIT_SPEED * dt
        if abs(self._stick) > 0.2:
            spin -= self._stick * ORBIT_SPEED * dt
        if spin:
            self.camera = self.camera.orbit(spin)
        if self.turning:
            self.turn_t += dt / TURN_S
            if self._zoom is not None:
                a, b = self._zoom
                self.camera = replace(self.camera, distance=a + (b - a) * smooth(self.turn_t))
            if self.turn_t >= 1.0:
                self.turn_from = None
                self.turn_t = 0.0
                self._zoom = None
                self._view_tip()
        if self.timeline is not None:
            # keys pressed ahead hurry the animation along; the demo plays at its own pace
            speed = 1.0 + 1.5 * sum(1 for a in self.queue if a[0] == "arrow")
            self.anim_t += dt * speed
            if self.anim_t >= self.timeline.total:
                self._animation_done()
        # run what is waiting: a turn waits for nothing but another turn;
        # a move waits for the turn and the animation before it
        while self.queue and not self.turning:
            kind = self.queue[0][0]
            if kind != "turn" and self.animating:
                break
            action = self.queue.popleft()
            if kind == "turn":
                self.start_turn()
            elif kind == "arrow":
                self.arrow(action[1])
            elif kind == "move":
                self.move(action[1])

    # -- drawing ------------------------------------------------------------------------

    def _upload(self, state) -> None:
        if self.renderer is not None and state != self._uploaded:
            self.renderer.set_state(state)
            self._uploaded = state

    def draw_gl(self, window) -> None:
        pose = self.pose()
        part = self._part(window, pose)
        warming = self.renderer is not None and bool(self._warm) and self._idle()
        key = (pose, part, self.view, self.turn_from, self.turn_t, self.camera,
               window.scene_serial, window.scene_size)
        if key == self._drawn and not warming:
            # Nothing that the room's picture depends on has changed: the internal target
            # still holds it, and only the compositing pass runs.  On a software rasteriser
            # that frees the cores for the frames that move (a frame at rest costs 5 ms, not 11).
            return
        self._drawn = None
        window.begin_scene(part)
        if self.renderer is None:
            return
        try:
            if warming:
                self._warm_one()  # one pixel, which the frame drawn next covers
            # the renderer holds the state of the segment playing (uploaded when it changes)
            self._upload(pose.state if pose.state is not None else self.game.state)
            self._draw_room(window, pose)
            self._drawn = key
        except Exception as e:  # a broken shader must not take the game down
            print(f"anabasis: warning: drawing the room failed: {e}", file=sys.stderr)
            self.renderer = None

    def _draw_room(self, window, pose: animation.Pose) -> None:
        """Draw ``pose`` with the view (or the turn) and the camera of this frame."""
        from anabasis.picture.render import Pose as Frame  # imported by now: the renderer needs it

        turning = self.turning
        self.renderer.draw(Frame(
            player=pose.player,
            view=self.turn_from if turning else self.view,
            toward=self.view if turning else None,
            turn=smooth(self.turn_t) if turning else 0.0,
            camera=self.camera,
            moving_crate=pose.moving,
        ), window.scene_viewport)  # the target's own viewport is whatever was last set on it

    def _part(self, window, pose) -> float:
        """The part of the internal size to draw this frame at (see ``Window.begin_scene``)."""
        if not window.software or self.renderer is None:
            return 1.0
        if self.turning:  # an oblique slice takes more DDA steps, and the HUD redraws
            return TURN_PART
        # a cross-fade traces two slices: the hidden coordinate between two cells
        c = pose.player[hidden_axis(self.view)]
        return FADE_PART if abs(c - round(c)) > 1e-4 else 1.0

    # -- warming the shader's variants ------------------------------------------------------

    def _idle(self) -> bool:
        """Nothing moving and no input for a moment: a hitch now goes unseen."""
        return (not self.busy and not self.held and not self.dragging
                and self.clock - self._last_input > WARM_AFTER_S)

    def _warm_poses(self) -> list:
        return warm_poses(self.room, self.game.state, self.view, crates=bool(self.state.crates))

    def _warm_one(self) -> None:
        # one pixel, drawn before the real frame, which covers it
        if warm_next(self.renderer, self._warm):
            self.app.warmed = True

    def draw_overlay(self, ov) -> None:
        hud.draw(ov, self)


def _loss_text(where, room, w_hidden: bool = False) -> str:
    """Why the player was lost, from where the fall ended, in a line."""
    if where[3] < 0 and not room.wrap:
        if w_hidden:  # the stand view shows what holds you in w as a blue tint
            return ("you fell out of the world, kata: only a floor tinted blue has a block "
                    "kata of you. The move is undone")
        return "you fell out of the world, kata: nothing held you in w. The move is undone"
    if where[2] < 0:
        return LOSS_MESSAGE
    return "you fell kata for ever round the wrapped room: the move is undone"


def warm_poses(room, state, first_view: str = "stand", crates: bool = True) -> list:
    """One pose per shader variant the game can need (ghost, cross-fade, moving crate).

    The software rasteriser compiles a variant on its first draw (200-400 ms
    on llvmpipe); drawn once at rest into one pixel, it never stalls a move.
    The programs are shared by every room on the window's context, so this
    work carries over to later rooms.  ``crates=False``: a room without
    crates never draws one moving.
    """
    from anabasis.picture import render

    cell = state.crates[0] if state.crates else room.goal
    poses = []
    movings = (None, (cell, (0.5, 0.0, 0.0, 0.0))) if crates else (None,)
    # stand and w-up draw a ghost layer, "both" none; each view's fade runs along its hidden axis
    for view, hidden in (("stand", 3), ("both", 1)):
        for fade in (0.0, 0.5):
            for moving in movings:
                player = [float(c) for c in state.player]
                player[hidden] += fade
                poses.append(render.Pose(player=tuple(player), view=view, moving_crate=moving))
    if first_view == "both":  # the variants the room meets first go first
        half = len(poses) // 2
        poses = poses[half:] + poses[:half]
    return poses


def warm_next(renderer, poses: list) -> bool:
    """Compile the first variant ``poses`` needs that is not compiled yet; True if one was.

    Poses are taken off the front of the list as they are dealt with; the
    variant is compiled by drawing its pose into one pixel of the bound target.
    """
    while poses:
        pose = poses.pop(0)
        if not renderer.has_program_for(pose):  # else compiled already, by any room
            renderer.draw(pose, (0, 0, 1, 1))
            return True
    return False


#: Gamepad buttons to actions.
_PAD = {
    pygame.CONTROLLER_BUTTON_DPAD_UP: "up",
    pygame.CONTROLLER_BUTTON_DPAD_DOWN: "down",
    pygame.CONTROLLER_BUTTON_DPAD_LEFT: "left",
    pygame.CONTROLLER_BUTTON_DPAD_RIGHT: "right",
    pygame.CONTROLLER_BUTTON_A: "next",
    pygame.CONTROLLER_BUTTON_Y: "turn",
    pygame.CONTROLLER_BUTTON_B: "undo",
    pygame.CONTROLLER_BUTTON_X: "restart",
    pygame.CONTROLLER_BUTTON_BACK: "back",
    pygame.CONTROLLER_BUTTON_START: "help",
    pygame.CONTROLLER_BUTTON_LEFTSHOULDER: "orbit_left",
    pygame.CONTROLLER_BUTTON_RIGHTSHOULDER: "orbit_right",
}

