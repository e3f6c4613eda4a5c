"""A room's draw state: the renderer, what the GPU and the internal target hold, the warm-up.

Tatham's ``game_drawstate``: nothing here is game state (undo never knows
about it) or UI state (the player never sees it change); it exists only so
that a frame costs no more than it must.

- What the GPU holds is tracked once, by the renderer itself
  (``Renderer.state``): :meth:`RoomDraw.upload` writes a state only when it
  differs.
- What the internal target holds is the key of the last room drawn: a frame
  whose key matches draws nothing new (only the compositing pass runs).
- The ray tracer's shader variants are compiled in idle frames through one
  path, a :class:`Warmer`: the launcher warms level 1's and a wrapped room's
  variants, a room warms what is left of its own.

>>> from anabasis.formats import levelfile
>>> room = levelfile.parse("##### ##### #####\\n\\n##### #@..* .....\\n")
>>> len(warm_poses(room, room.start)), len(warm_poses(room, room.start, crates=False))
(10, 6)
"""

from __future__ import annotations

import sys
from dataclasses import replace

from anabasis.app.shell.window import FADE_PART, TURN_PART
from anabasis.app.viewer import animation
from anabasis.app.viewer.sight import Sight
from anabasis.picture import views


def warm_poses(room, state, first_view: str = "stand", crates: bool = True) -> list:
    """One renderer pose per shader variant the game can need (ghost, cross-fade, moving crate,
    ramp marks).

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
    for view in ("stand", "both"):
        for fade in (0.0, 0.5):
            for moving in movings:
                player = [float(c) for c in state.player]
                player[views.hidden_axis(view)] += fade
                poses.append(render.Pose(player=tuple(player), view=view, moving_crate=moving,
                                         marks=()))  # not the state's: one variant each
    if first_view == "both":  # the variants the room meets first go first
        half = len(poses) // 2
        poses = poses[half:] + poses[:half]
    # Where a step from a ramp lands is marked at rest only (never with a fade or a moving
    # crate): a pose per view with a mark in its slice.
    player = tuple(float(c) for c in state.player)
    for view in ("stand", "both"):
        poses.append(render.Pose(player=player, view=view, marks=((state.player, 1),)))
    return poses


class Warmer:
    """The variants still to compile: a list of (room, poses), done one per idle frame;
    ``variant``: names every one of them adds (the editor's ``EDIT``)."""

    def __init__(self, plan: list, variant=()):
        self.plan = plan  #: (room, poses) pairs; poses are taken off the front as done
        self.variant = frozenset(variant)

    @property
    def done(self) -> bool:
        return not self.plan

    def step(self, renderer_for) -> bool:
        """Compile the next variant not compiled yet (by drawing it into one pixel of the
        bound target); True if one was.  ``renderer_for(room)`` gives the room's renderer
        (None: nothing can be drawn, and the plan is dropped)."""
        while self.plan:
            room, poses = self.plan[0]
            renderer = renderer_for(room)
            if renderer is None:
                self.plan = []
                return False
            try:
                while poses:
                    pose = poses.pop(0)
                    if not renderer.has_program_for(pose, self.variant):  # else compiled already
                        renderer.warm(pose, self.variant)
                        return True
            except Exception as e:
                print(f"anabasis: warning: the renderer failed: {e}", file=sys.stderr)
                self.plan = []
                return False
            self.plan.pop(0)
        return False


class DrawCache:
    """What the internal target holds, and the warm-up left: the one draw path of a room on
    screen, play's and the editor's.  A frame whose key (what its picture depends on) is the
    last one drawn draws nothing: the target still holds it, and only the compositing pass
    runs.  On a software rasteriser that frees the cores for the frames that move (a frame
    at rest costs 5 ms, not 11)."""

    def __init__(self, warmer: Warmer, variant=()):
        self.warmer = warmer
        self.variant = frozenset(variant)  #: names every frame adds (the editor's ``EDIT``)
        self._drawn = None  #: the key of what the internal target holds
        self.failed = False  #: the last draw raised (said on stderr)

    def forget(self) -> None:
        """The target no longer holds the last picture (another scene drew over it)."""
        self._drawn = None

    def draw(self, window, renderer, frame, key, idle: bool, part: float = 1.0,
             before=None, sharp: bool = False) -> bool:
        """Draw ``frame`` (a renderer pose, or a function that makes it) unless ``key`` is
        what the target holds; compile one more warm-up variant first when ``idle``.
        ``before()`` runs just before the draw (play uploads the state).  ``sharp``: at
        rest, drawn at the window's own size (``Window.begin_sharp``) once the warm-up is
        done.  True if a shader variant was compiled this frame."""
        warming = renderer is not None and not self.warmer.done and idle
        sharp = sharp and idle and not warming and window.software and renderer is not None
        key = (key, sharp)
        if key == self._drawn and not warming:
            return False
        self._drawn = None
        if sharp:
            window.begin_sharp()
        else:
            window.begin_scene(part)
        if renderer is None:
            return False
        warmed = False
        try:
            if warming:  # one pixel, which the frame drawn next covers
                warmed = self.warmer.step(lambda room: renderer)
            if before is not None:
                before()
            if callable(frame):
                frame = frame()
            if self.variant:
                renderer.draw(frame, window.scene_viewport, variant=set(self.variant))
            else:
                renderer.draw(frame, window.scene_viewport)
            self._drawn = key
            self.failed = False
        except Exception as e:  # a broken shader must not take the game down
            print(f"anabasis: warning: drawing the room failed: {e}", file=sys.stderr)
            self.failed = True
        return warmed


class RoomDraw:
    """The draw state of a room being played: its renderer (None where it failed), the
    pose made this frame, and the :class:`DrawCache` (what the target holds, the warm-up)."""

    def __init__(self, renderer, room, state, view: str):
        self.renderer = renderer
        self.room = room
        crates = bool(state.crates)
        self.cache = DrawCache(Warmer([(room, warm_poses(room, state, view, crates))]
                                      if renderer is not None else []))
        self._pose_key: tuple | None = None  #: what the cached pose was made from
        self._pose: animation.Movers | None = None
        self._marks: tuple = (None, ())  #: (state, its ramp marks), asked of the rules once
        #: at rest, the room drawn once more at the window's own size (``DrawCache.draw``)
        self.sharp_at_rest = True
        self.upload(state)

    @property
    def warmer(self) -> Warmer:
        return self.cache.warmer

    def pose(self, timeline, t: float, state) -> animation.Movers:
        """The movers as drawn at ``t`` of ``timeline`` (or at rest in ``state``), made once
        a frame: the room and the HUD both read it."""
        key = (timeline, t, state)
        if key != self._pose_key:
            self._pose_key = key
            self._pose = timeline.pose(t) if timeline is not None else animation.still(state)
        return self._pose

    def upload(self, state) -> None:
        """Have the GPU hold ``state``'s movers (written only when they differ)."""
        if self.renderer is not None and state != self.renderer.state:
            self.renderer.set_state(state)

    def draw(self, window, pose: animation.Movers, sight: Sight, at_rest, idle: bool) -> bool:
        """Draw the room as ``pose`` and ``sight`` show it; True if a shader variant was
        compiled this frame (warmed while ``idle``).  ``at_rest`` is the state to hold
        when the pose names none."""
        part = self.part(window, pose, sight)
        key = (pose, part, sight, window.scene_serial, window.scene_size,
               self.renderer.current_palette() if self.renderer is not None else None)
        # the renderer holds the state of the segment playing (uploaded when it changes), and
        # draws the ramp marks of that state, which play asks of the rules
        held = pose.state if pose.state is not None else at_rest
        warmed = self.cache.draw(window, self.renderer,
                                 lambda: replace(sight.frame(pose), marks=self.ramp_marks(held)),
                                 key, idle, part, before=lambda: self.upload(held),
                                 sharp=self.sharp_at_rest)
        if self.cache.failed:
            self.renderer = None
        return warmed

    def ramp_marks(self, state) -> tuple:
        """Where the steps a ramp takes through w land from ``state`` (``render.ramp_marks``),
        asked of the rules once per state.

        >>> from anabasis.engine import rules
        >>> from anabasis.formats import levels
        >>> room = levels.load_level(3)
        >>> RoomDraw(None, room, room.start, "stand").ramp_marks(rules.replay(room, "RR").state)
        (((2, 1, 1, 2), 1),)
        """
        if self._marks[0] != state:
            from anabasis.picture import render

            self._marks = (state, render.ramp_marks(self.room, state))
        return self._marks[1]

    def part(self, window, pose, sight: Sight) -> float:
        """The part of the internal size to draw this frame at (see ``Window.begin_scene``)."""
        if not window.software or self.renderer is None:
            return 1.0
        if sight.turning:  # an oblique slice takes more DDA steps, and the HUD redraws
            return TURN_PART
        # a cross-fade traces two slices: the hidden coordinate between two cells
        c = pose.player[sight.hidden]
        return FADE_PART if abs(c - round(c)) > 1e-4 else 1.0


def warm_plan() -> list:
    """(room, poses) pairs whose drawing compiles every variant of the ray tracer.

    Level 1's first, in the order a player meets them, then a wrapped room's (the
    wrap is a variant of its own).  The programs are shared by every room's
    renderer, so these serve every level and made room.
    """
    from anabasis.engine import rules
    from anabasis.formats import levels

    try:
        rooms = [levels.load_level(n) for n in range(1, levels.count() + 1)]
    except Exception:  # a broken level file: the launcher shows it; nothing to warm
        return []
    wrapped = [room for room in rooms if room.wrap]
    return [(room, warm_poses(room, rules.start(room).state))
            for room in rooms[:1] + wrapped[:1]]
