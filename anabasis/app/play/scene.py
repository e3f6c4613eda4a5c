"""Playing a room: input to moves, moves to animations, views and their turns.

:class:`Play` keeps three kinds of state apart, the way Simon Tatham's
puzzles keep ``game_state``, ``game_ui`` and ``game_drawstate``:

- **game state**, ``self.game`` (an engine :class:`~anabasis.engine.rules.Game`:
  the state, the moves, the undo stack): what undo brings back;
- **UI state**: ``self.sight`` (the view, a turn, the camera: one small
  value, :class:`~anabasis.app.viewer.sight.Sight`), the animation playing, the
  input queue and held keys, the message on screen (:meth:`Play.say`);
- **draw state**, ``self.draw`` (:class:`~anabasis.app.viewer.drawstate.RoomDraw`:
  the renderer, what the GPU and the internal target hold, the warm-up).

Input is a queue of actions.  An action waits while a turn plays ("input
during a turn is queued"), and a move waits for the animation before it;
when several are waiting the animation plays faster, so fast typing never
falls far behind.  Undo and restart don't wait: they finish the animation
at once and act.  Each move played passes through :meth:`Play.played` (the
place for what follows a move: cues, hints); each animation that ends
through :meth:`Play.landed`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import pygame

from anabasis.app.play import cues, hook, hud, markers, reading, recipe
from anabasis.app.play.hints import TOO_BIG_TEXT, Hints, apart
from anabasis.app.play.session import Opened
from anabasis.app.shell.scene import Scene
from anabasis.app.viewer import animation
from anabasis.app.viewer.camera import (  # noqa: F401 (the camera's constants, for tests)
    DRAG_YAW,
    ORBIT_SPEED,
    ORBITS,
    TAP_STEP,
    WARM_AFTER_S,
    CameraInput,
)
from anabasis.app.viewer.drawstate import RoomDraw
from anabasis.app.viewer.sight import Sight
from anabasis.engine import moves as why
from anabasis.engine import rules
from anabasis.engine.cells import BLOCK
from anabasis.engine.moves import Result
from anabasis.picture import views

#: What the game says when an arrow would step in w (the design's own words).
W_MESSAGE = "you can't step in w: gravity takes you kata, only a ramp takes you ana"


def w_message(hidden: int, turn_key: str) -> str:
    """What an arrow that would step in w says, in a view that hides axis ``hidden``: where
    that is x or y, that a step along it waits for another view (three blind players of
    three, pressing down in the both-downs view to step in y, met :data:`W_MESSAGE`, which
    told them of w, and did not know the view could not take them along y).

    >>> w_message(3, "V") == W_MESSAGE
    True
    >>> print(w_message(1, "V").replace(" · ", "\\n"))
    ↑ ↓ point along w here: no key steps in w
    y is hidden in this view: V turns to one where you step in y
    """
    if hidden not in (0, 1):
        return W_MESSAGE
    axis = views.AXES[hidden]
    turn = f"{turn_key} turns to one" if turn_key else "turn to one"
    # ("no step in w (only a ramp takes you ana)" read to a blind player on a ramp as "you
    # are not on a ramp")
    return (f"↑ ↓ point along w here: no key steps in w · {axis} is hidden in this view:"
            f" {turn} where you step in {axis}")

#: What the game adds when the player fell out kata while the view hides w.
KATA_TINT_TIP = "a floor drawn as a dark pit has nothing kata of it"

#: What each view shows, said after the first few turns of a session.
VIEW_TIPS = {
    "stand": "stand: z is up and w is hidden; a dark pit in the floor has nothing kata of it",
    "w-up": "w up: w is drawn as up and z is hidden; the block kata of you is your floor",
    # (that you step in x alone here said: two blind players of a round pressed on to finish
    # level 7 in it, and learnt it from a refused key)
    "both": "both downs: z up, w along the floor, y hidden: you step in x alone (V: in y too)",
}
VIEW_TIPS_PER_SESSION = 4
#: Said once a session, with w up, when the pawn first changes slice past blocks
#: (:meth:`Play._cut_tip`).
CUT_TIP = ("w up: nothing ana of your slice is drawn, so a wall that rises past it looks"
           " lower as you go kata, and taller as you go ana")
#: Said once a session at the first rest beside a crate a step would climb onto
#: (:meth:`Play._crate_step_tip`).
CRATE_STEP_TIP = ("a crate that cannot move is a step: walk into it and you climb onto it"
                  " (\u2b0f climb)")
#: Said once a session at the first rest where the window round the pawn is open
#: (:meth:`Play._window_tip`).
WINDOW_TIP = ("the pink ring: a window cut in what stands in front of you, so that you see"
              " yourself and your floor")
#: Said once a session, with w up in a room whose w wraps, when the pawn first goes round
#: the seam (:meth:`Play._cut_tip`).
WRAP_TIP = ("w wraps: ana of w {last} is w 0, so the picture starts again from its foot;"
            " you went {ana}, not the other way")

MESSAGE_S = 3.0

ARROWS = ("up", "down", "left", "right")
REDUCED_MOTION = 3.0  #: turns and moves play this many times faster with reduced motion

#: The launcher's line Esc comes back to from a room that is not a level.
LAUNCHER_LINE = {"room": lambda o: ("code",), "gen": lambda o: ("gen", o.tier),
                 "daily": lambda o: ("daily",)}


def loss_text(result: Result, w_hidden: bool = False) -> str:
    """What the game says when a move lost (and is undone), from the engine's why.

    >>> from anabasis.engine.moves import FELL_BELOW, Result
    >>> loss_text(Result(None, "lost", True, (), FELL_BELOW))
    'you fell out the bottom of the room. The move is undone'
    """
    said = result.why or "you fell out of the world"
    if result.why == why.FELL_KATA and w_hidden:
        # the stand view draws floor with nothing kata of it as a pit
        said += f". {KATA_TINT_TIP.capitalize()}"
    return f"{said}. The move is undone"


class Play(Scene):
    """A room being played."""

    name = "play"

    def __init__(self, app, opened: Opened):
        self.app = app
        self.opened = opened
        self.room = opened.room
        self.level = opened.level
        # -- game state: what undo brings back
        self.game = rules.Game(self.room)  #: the state, the moves and the undo stack
        self.rest_w = self.game.state.player[3]  #: the pawn's slice at its last rest
        # -- UI state: what the player is doing and sees
        view = self.room.view if self.room.view in views.VIEWS else "stand"
        w, h = app.window.scene_size  # the camera chosen for the room, framing all of it
        self.sight = Sight(view, views.room_camera(self.room.size, view, self.game.state.player,
                                                   w / h, self.room.wrap))
        #: ("arrow", a), ("turn",), ("move", m), ("hook", a): waiting to run
        self.queue: deque = deque()
        self.timeline: animation.Timeline | None = None  #: the move being animated
        self.anim_t = 0.0
        self.landing: Result | None = None  #: the result the animation playing ends in
        self.hook_keys = hook.HookKeys(self.game.hook)  #: the hook's keys (a hook room's)
        self.flight: hook.Flight | None = None  #: the hook's last flight, while it is drawn
        self.message = ""
        self.message_left = 0.0
        self.message_kind = "info"
        #: what ends the message before its time: "move" (the next move: a move's own
        #: words), "turn" (the next turn: a view's tip), or None (only its time)
        self.message_until: str | None = None
        self.new_best = False
        #: after a win, the player turned the view or the camera to look at the room: the win
        #: panel steps aside (its way on stays in the key line).  It sat over the room, and a
        #: blind player who turned to see the won room in another view had to restart to.
        self.win_aside = False
        self.every_level_done = False  #: after a level's win: every level of every chapter
        self.daily = None  #: after a win of today's room: its card (daily_card.DailyCard)
        self.help = False
        #: the help's page while it is open: 0 the controls, views and rules, then the
        #: marks, a group a page (all on one page, at 1280 x 720 its lines were 13 pixels
        #: high: "dense", said nearly every blind player who opened it)
        self.help_page = 0
        self.camera_input = CameraInput()  #: drag, wheel, the orbit keys, the stick
        self.w_refusals = 0
        self.pending: list[cues.Cue] = []  #: the cues of the move playing, not yet due
        self.fired: deque[str] = deque(maxlen=64)  #: every cue's kind, latest last (tests)
        self.rings: list[tuple[tuple, float]] = []  #: (cell, when): crates just landed
        self.clock = 0.0
        self._last_input = 0.0
        #: the solver's answers for the position on screen, asked off the frame loop
        self.hints = Hints(self.room, app.work, apart=apart)
        self._lost_said = False  #: the lost-cause line was said for this lost streak
        if not self.demo:
            self.hints.ask(self.game)
        #: the slice map, the step marks and the plan view (docs/game.md, "Reading a room")
        self.reading = reading.Reading(self)
        # -- draw state: what is on screen, and the caches that spare redrawing it
        self.draw = RoomDraw(app.renderer_for(self.room), self.room, self.game.state, view)
        self.sight = replace(self.sight, camera=self._framing(self.sight))  # (beside the map)
        if not self.demo and opened.level == 1 and opened.key not in app.progress.solved:
            self.say(app.keymap.text("{turn} turns your sight · {help} shows every key"), "info",
                     6.0)
        hook.greet(self)
        reading.map_news(self)

    def _framing(self, sight: Sight, margin: float = 0.9, gizmo: bool = False) -> views.Camera:
        """The camera (its yaw and pitch kept) aimed and moved back to show the room in the
        view within ``margin`` of the window's edges (never closer than the default: a
        tiny room still shows its surroundings); with ``gizmo``, clear of the axes gizmo."""
        w, h = self.app.window.scene_size
        b = views.view_basis(sight.view)

        def frame(area):
            return views.frame_room(sight.camera, b, self.room.size, self.game.state.player,
                                    w / h, self.room.wrap, margin, area)

        if getattr(self, "reading", None) is None:  # (while the scene is being made)
            return frame(reading.ROOM_AREA)
        if gizmo:
            frame = reading.clear_of_gizmo(self, b, frame)
        return reading.beside_map(self, b, frame)  # the room clear of the corner map

    # -- state --------------------------------------------------------------------

    @property
    def state(self):
        return self.game.state

    @property
    def demo(self) -> bool:
        """The demo plays itself (``anabasis --demo``): the app's flag, kept there only."""
        return self.app.demo

    @property
    def won(self) -> bool:
        """The room is won and its last move has finished playing (the win panel shows)."""
        return self.game.status == "won" and self.timeline is None

    @property
    def motion(self) -> float:
        """How fast turns and moves play: faster with reduced motion (a setting)."""
        return REDUCED_MOTION if self.app.progress.reduced_motion and not self.demo else 1.0

    @property
    def renderer(self):
        return self.draw.renderer

    @property
    def animating(self) -> bool:
        return self.timeline is not None

    @property
    def busy(self) -> bool:
        """True while a turn or an animation plays (tests step frames until it is False)."""
        return self.sight.turning or self.animating or bool(self.queue)

    def pose(self) -> animation.Movers:
        """The movers as drawn now (made once a frame: the room and the HUD both read it)."""
        return self.draw.pose(self.timeline, self.anim_t, self.game.state)

    def say(self, text: str, kind: str = "info", seconds: float = MESSAGE_S,
            until: str | None = None) -> bool:
        """Show a message for ``seconds``, or till ``until`` comes first ("move": the next
        move; "turn": the next turn); the one place messages are set."""
        self.message, self.message_kind, self.message_left = text, kind, seconds
        self.message_until = until
        return True

    def _message_ends(self, event: str) -> None:
        """``event`` ("move" or "turn") has come: a message said till it goes."""
        if self.message_left > 0 and self.message_until == event:
            self.message_left = 0.0

    def play_moves(self, moves) -> None:
        self.queue.extend(("move", m) for m in moves)

    # -- input ----------------------------------------------------------------------

    def handle(self, event, action: str | None = None) -> None:
        t = event.type
        self._last_input = self.clock
        if t == pygame.KEYDOWN:
            # the words of the map's cell under the pointer wait till it moves again: left
            # resting where the window opened, it said a cell three blind players never
            # pointed at, over the large map each time they opened it, read as a warning
            self.reading.pointer = None
            self._key(action, event)
        elif t == pygame.KEYUP:
            self.hook_keys.up(self, action)
            if action in ORBITS:
                self._let_go(action)
            elif action == "step_marks":
                self.reading.key(action, down=False)
        elif t == pygame.MOUSEBUTTONDOWN and event.button == 2:
            self.reading.toggle_plan()  # the middle button: the plan view, and back
        elif t == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.camera_input.dragging = True
        elif t == pygame.MOUSEBUTTONUP and event.button in (1, 3):
            self.camera_input.dragging = False
        elif t == pygame.MOUSEMOTION and self.camera_input.dragging:
            self.sight = self.camera_input.drag(self.sight, event.rel)
            self.reading.orbited()
        elif t == pygame.MOUSEMOTION and tuple(event.rel) != (0, 0):
            # (over the map: its cell said, its row and column; not where the window opened
            # under a resting pointer, which says so by a motion of nothing)
            self.reading.pointer = event.pos
        elif t == pygame.WINDOWLEAVE:
            self.reading.pointer = None
        elif t == pygame.MOUSEWHEEL:
            self.sight = self.camera_input.wheel(self.sight, event.y)
        elif t == pygame.CONTROLLERBUTTONDOWN:
            self._key(_PAD.get(event.button), event)
        elif t == pygame.CONTROLLERBUTTONUP:
            if _PAD.get(event.button) in ORBITS:
                self._let_go(_PAD[event.button])
        elif t == pygame.CONTROLLERAXISMOTION:
            if event.axis == pygame.CONTROLLER_AXIS_RIGHTX:
                self.camera_input.stick = event.value / 32768.0

    def _key(self, action, event) -> None:
        if action is None:
            # (a key bound to nothing closes the help too, as its foot says any other key
            # does: t314 pressed K, and it stayed)
            if self.help and event is not None and event.type == pygame.KEYDOWN:
                self.help = False
            return
        if self.demo and action not in ("back", "help"):
            return  # the demo plays itself: only leaving it is the player's
        if self.help and action not in ("fullscreen", "screenshot"):
            # its key turns its pages and closes it after the last; the arrows turn them
            # either way (H alone went one way, and a player looking for one mark had no
            # way back, t315); any other key closes it
            page = hud.help_after(self.help_page, action, "left", "right")
            self.help, self.help_page = page is not None, page or 0
            return
        if self.hook_keys.down(self, action):
            return
        if action in ARROWS:
            if self.won:
                return
            self.queue.append(("arrow", action))
        elif action == "turn":
            self.queue.append(("turn",))
        elif action in ORBITS:
            self.win_aside = self.win_aside or self.won
            self.camera_input.press(action, self.clock, self.sight.camera.yaw)
        elif action == "undo":
            self.undo()
        elif action == "restart":
            self.restart()
        elif action == "back":
            self.leave()
        elif action == "copy":
            self.copy_code()
        elif action == "share" and self.won and self.daily is not None:
            self.daily.share(self.app)
        elif action == "help":  # (open, the help takes its keys above)
            self.help, self.help_page = True, 0
        elif action == "hint":
            self.hint()
        elif action == "next" and self.won:
            if self.opened.back is not None:
                self.leave()
            else:
                self.app.next_after(self.opened)
        elif action == "new_room" and self.opened.tier:
            self.app.build_room(self.opened.tier)
        elif action == "recipe":
            recipe.ask(self)
        elif action == "settings" and not self.demo:
            self.app.show_settings(self)
        elif action == "edit_room":
            self.edit_room()
        else:
            self.reading.key(action)

    def edit_room(self) -> None:
        """F2: this room in the editor, as it starts (a play-test goes back to its editor)."""
        if self.opened.back is not None:
            self.leave()
            return
        self.app.edit_played(self.opened)

    def leave(self) -> None:
        """Esc: back where the room came from (the editor, for a play-test), else the launcher."""
        if self.opened.back is not None:
            self.opened.back.returned()
        elif self.opened.kind in LAUNCHER_LINE and not self.demo:
            # back on the line it was opened from, so the next keys do not open a level
            self.app.to_launcher_on(self.opened.back_line
                                    or LAUNCHER_LINE[self.opened.kind](self.opened))
        else:
            self.app.to_launcher()

    def _let_go(self, action: str) -> None:
        """Q or E released: after a tap, the turn is made up to one fixed step."""
        self.camera_input.release(action, self.clock, self.sight.camera.yaw)

    # -- acting -----------------------------------------------------------------------

    def _finish_animation(self) -> None:
        self.pending = []  # cut short: what it had still to do is not done
        if self.timeline is not None:
            self.anim_t = self.timeline.total
            self._animation_done()

    def undo(self) -> bool:
        """Z: one state back, any number of times."""
        self._finish_animation()
        self.queue = deque(a for a in self.queue if a[0] == "turn")
        if self.game.undo():
            self.draw.upload(self.game.state)
            self.rest_w = self.game.state.player[3]
            self._cue("undo")
            self.hints.ask(self.game)
            self.say("undone", "dim", 0.8)
            return True
        self.say("nothing to undo", "dim", 1.2)
        return False

    def restart(self) -> bool:
        """R: back to the start (undo brings the moves back)."""
        self._finish_animation()
        self.queue.clear()
        won = self.game.status == "won"
        if self.game.restart():
            self.draw.upload(self.game.state)
            self.rest_w = self.game.state.player[3]
            self._cue("restart")
            if won:
                self.hints.used = 0  # playing again: a fresh count
            self.hints.ask(self.game)
            self.say(self.app.keymap.text("restarted ({undo} undoes it)"), "dim", 1.5)
            return True
        return False

    def copy_code(self) -> None:
        code = self.opened.code
        if code is None:
            self.say("this room has no code", "warn")
            return
        self.app.copy_code(code)

    def arrow(self, arrow: str) -> str | None:
        """An arrow key at rest: the step it means on screen, played; or the w message."""
        move = views.arrow_to_move(self.sight.basis(), self.sight.camera.yaw, arrow)
        if move == "w":
            self.w_refusals += 1
            self.say(w_message(views.hidden_axis(self.sight.view),
                               self.app.keymap.label("turn")), "warn")
            return None
        if move not in rules.STEPS:
            return None  # 'z' only mid-turn, and moves never run mid-turn
        self.move(move)
        return move

    def hook_arrow(self, arrow: str) -> str | None:
        """An arrow with the hook key, at rest: the hook fired the way it means on screen."""
        move = hook.arrow_to_hook(self.sight.basis(), self.sight.camera.yaw, arrow)
        if move is not None:
            self.move(move)
        return move

    def move(self, move: str) -> bool:
        """Play one move through the engine and start its animation."""
        if move in rules.HOOKS:
            return hook.fire(self, move)
        before = self.game.state
        result = self.game.play(move)
        self.played(result)
        if not result.moved:
            self._bump(move, result)
            return False
        frames = tuple(result.frames) or (result.state,)
        # with w hidden a slip swaps the whole slice: slow enough to watch it go
        # (a move never runs mid-turn, so the view is at rest)
        slip_s = animation.SLIP_S if self.sight.hidden == 3 else animation.FALL_S
        segments = animation.segments_for(before, frames, result.status == "lost", slip_s)
        self.landing = result
        timeline = (animation.Timeline(segments, self.room.size[3], self.room.wrap)
                    if segments else None)
        self.pending = cues.of_move(before, result, timeline, self.room.size[3], self.room.wrap)
        if timeline is None:
            self._due(float("inf"))
            self._animation_done()
            return True
        self.timeline = timeline
        self.anim_t = 0.0
        self._due(0.0)
        return True

    def _bump(self, move: str, result: Result) -> None:
        """A step that is not a move: a half-step toward the cell and back, and why."""
        self.pending = cues.of_move(self.game.state, result, None, self.room.size[3],
                                    self.room.wrap, self.room.size[2])
        if not self.pending:
            return  # (the room is over: nothing moves, nothing to show)
        d = rules.STEPS[move]
        toward = tuple(p + q for p, q in zip(self.game.state.player, d, strict=True))
        self.timeline = animation.Timeline(animation.bump(self.game.state, toward),
                                           self.room.size[3], self.room.wrap)
        self.anim_t = 0.0
        self._due(0.0)

    def _due(self, t: float) -> None:
        """Fire the pending cues due by ``t`` seconds into the animation."""
        while self.pending and self.pending[0].at <= t:
            self._fire(self.pending.pop(0))

    def _fire(self, cue: cues.Cue) -> None:
        """A cue's moment: its sound, its words, its mark."""
        self._cue(cues.SOUND[cue.kind], cue.kind)
        if cue.kind == "bump":
            told = self.app.told
            if cue.why not in told:  # the reason, said the first time in a session
                told.add(cue.why)
                self.say(cue.text, "warn", 3.0)
        elif cue.kind == "land":
            self.rings.append((cue.cell, self.clock))
        elif cue.text:
            self.say(cue.text, "info", 1.6, until="move")

    def _cue(self, sound: str, kind: str | None = None) -> None:
        self.fired.append(kind or sound)
        self.app.sound.play(sound)

    def played(self, result: Result) -> None:
        """A move was played (``result.moved`` False: it did nothing, and ``result.why``
        says why).  The place for what follows every move."""
        self._message_ends("move")  # what the last move did is not what this one does
        if result.moved and result.status != "lost" and not self.demo:
            self.hints.ask(self.game)  # is there still a way on? (a worker answers)

    def hint(self) -> None:
        """The hint key: the next move of a shortest solution from here (never played)."""
        got = self.hints.press()
        if got == "lost":
            self.say(self.hints.lost_line(), "warn", 6.0)
        elif got == "too-big":
            self.say(TOO_BIG_TEXT, "warn", 5.0)
        elif got == "all":
            self.say("every move to the goal is shown", "dim", 2.0)

    def _answered(self, answer) -> None:
        """The worker's answer for the position on screen has come."""
        if self.hints.wanted:  # the key was pressed before it came: answer it now
            self.hints.wanted = False
            self.hint()
            self._lost_said = self.hints.lost
        if not self.hints.lost:
            self._lost_said = False
        elif not self._lost_said:  # said once, as the position turns lost
            self._lost_said = True
            self.say(self.hints.lost_line(), "warn", 6.0)

    def _animation_done(self) -> None:
        result, self.landing = self.landing, None
        self.timeline = None
        # the engine never took a losing move: the state shown is the one before it
        self.draw.upload(self.game.state)
        if result is not None:
            self.landed(result)

    def landed(self, result: Result) -> None:
        """The animation of ``result`` has finished playing."""
        was, self.rest_w = self.rest_w, self.game.state.player[3]
        if result.status == "lost":
            self.say(loss_text(result, self.sight.hidden == 3), "warn", 4.0)
        elif self.game.status == "won":
            self._win()
        else:  # (one tip at a time)
            (was != self.rest_w and self._cut_tip(was, self.rest_w)) \
                or self._crate_step_tip() or self._window_tip()

    def _tip_once(self, tip: str, words: str | None = None) -> bool:
        """Say ``tip`` (in ``words``, where they are filled in) unless this session has
        said it, or the demo plays; True if it said it."""
        if self.demo or tip in self.app.told:
            return False
        self.app.told.add(tip)
        self.say(words or tip, "info", 6.0, until="move")
        return True

    def _window_tip(self) -> bool:
        """The first rest of a session where something drawn hides the pawn, so that the
        window round it is cut and rimmed in pink, says what the ring is: three blind players
        of two rounds never learnt it, and read it as a hole, a selection, or a curved rail
        (t331, t335, t336); the help's third page says it.  True if it said it."""
        # (not over the large map, where no ring is drawn: three blind players of a round
        # met the tip there, t349 to t351; it waits for a rest with the room in sight)
        return (self.draw.renderer.window_open and not self.reading.large
                and self._tip_once(WINDOW_TIP))

    def _crate_step_tip(self) -> bool:
        """The first rest of a session beside a crate that a step would climb onto (it
        cannot move) says that such a crate is a step: blind players of three rounds, past
        the tutorial in made rooms, did not know it, and one took six hints to find it out
        (t308, t320, t321); the help's first page says it, and they read it after.  True if
        it said it."""
        return CRATE_STEP_TIP not in self.app.told and any(
            m.kind == "climb" and m.then == "onto the crate"
            for m in self.reading.marks.get(self.game.state)) and self._tip_once(CRATE_STEP_TIP)

    def _cut_tip(self, was: int, now: int) -> bool:
        """With w up, the first move of a session that takes the pawn to another slice past
        a block of the slices between says why the walls' heights changed: nothing ana of
        the pawn's slice is drawn.  (Level 2's wall, cut as the pawn slipped kata, read to
        blind players of every round as the room changing: t298 to t315.)  In a room whose
        w wraps, the first move round its seam says that instead.  True if it said one."""
        if self.demo or self.sight.view != "w-up":
            return False
        last = self.room.size[3] - 1
        if self.room.wrap:
            # (round the seam the picture draws you at the tower's foot again: three blind
            # players of three read level 7's ramp ana from w 3 to w 0 as a fall, t313 to
            # t315)
            return last >= 2 and {was, now} == {0, last} and self._tip_once(
                WRAP_TIP, WRAP_TIP.format(last=last, ana="ana" if now == 0 else "kata"))
        if CUT_TIP in self.app.told:
            return False
        top = max(was, now)
        size = self.room.size
        return any(self.room.cell((x, y, z, top)) == BLOCK for x in range(size[0])
                   for y in range(size[1]) for z in range(size[2])) and self._tip_once(CUT_TIP)

    def _win(self) -> None:
        self._cue("win")
        self.win_aside = False
        self.queue.clear()
        self.message_left = 0.0  # the win panel speaks now; an old message would sit under it
        moves = self.game.moves
        if self.demo:
            # the demo's win is the solver's, not the player's: nothing is recorded
            self.app.demo_won(moves, self.opened.par)
            return
        if self.opened.kind == "edit":
            return  # a play-test in the editor: the room is not finished, nothing is recorded
        self.new_best = self.app.progress.record(self.opened.key, moves, hints=self.hints.used)
        self.app.save_progress()
        if self.opened.kind == "level":
            from anabasis.app.settings.campaign import every_level_done

            self.every_level_done = every_level_done(self.app.progress)
        elif (self.opened.kind == "daily" and self.opened.day and self.opened.code
              and self.opened.par is not None):
            from anabasis.app.play.daily_card import winning_line

            self.daily = self.app.daily_board.won(
                self.opened.day, self.opened.code, winning_line(self.game), self.hints.used,
                self.clock, self.opened.par)

    def start_turn(self) -> None:
        # the room spans other axes in the new view: frame it again, over the turn,
        # unless the player chose a distance with the wheel
        turned = self.sight.turned()
        # (not orbited: the new view's own yaw and field of view, swung to over the turn)
        turned = replace(turned, camera=views.turned_camera(
            self.sight.camera, self.sight.view, turned.view, self.room.size))
        self.sight = self.sight.turned(self._framing(turned))
        self.reading.turn_began()
        self.win_aside = self.win_aside or self.won
        self._message_ends("turn")  # the tip of the view being left

    def _view_tip(self) -> None:
        """The first few turns of a session say what the new view shows."""
        if self.demo or self.app.view_tips <= 0 or self.queue:
            return
        self.app.view_tips -= 1
        self.say(VIEW_TIPS[self.sight.view], "info", 4.0, until="turn")

    # -- time ---------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.daily is not None:
            self.app.daily_board.poll()  # the board's answer, if it came (never waits)
        if self.message_left > 0:
            self.message_left -= dt
        if not self.animating:  # a lost line waits for the move to finish playing
            answer = self.hints.poll()
            if answer is not None:
                self._answered(answer)
        spin = self.camera_input.spin(dt)
        if spin:
            self.sight = self.sight.orbit(spin)
        if self.rings:
            self.rings = [(cell, t) for cell, t in self.rings if self.clock - t < markers.RING_S]
        if self.sight.turning:
            self.sight = self.sight.advanced(dt * self.motion)
            if not self.sight.turning:
                self._view_tip()
        if self.timeline is not None:
            # keys pressed ahead hurry the animation along; the demo plays at its own pace
            ahead = sum(1 for a in self.queue if a[0] in ("arrow", "hook"))
            speed = (1.0 + 1.5 * ahead) * self.motion
            self.anim_t += dt * speed
            self._due(self.anim_t)
            if self.anim_t >= self.timeline.total:
                self._due(float("inf"))
                self._animation_done()
        self.reading.hold_room()  # the room stays where it is on screen as the pawn moves
        # run what is waiting: a turn waits for nothing but another turn;
        # a move waits for the turn and the animation before it
        while self.queue and not self.sight.turning:
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
            elif kind == "hook":
                self.hook_arrow(action[1])

    # -- drawing ------------------------------------------------------------------------

    def _idle(self) -> bool:
        """Nothing moving and no input for a moment: a hitch now goes unseen."""
        return (not self.busy and not self.camera_input.busy
                and self.clock - self._last_input > WARM_AFTER_S)

    def draw_gl(self, window) -> bool:
        return self.draw.draw(window, self.pose(), self.sight, self.game.state, self._idle())

    def draw_overlay(self, ov) -> None:
        hud.draw(ov, self)
        reading.move_sprites(ov, self)  # (the map's movers, while a move plays)


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

