"""The hook in play: its keys, its flight as an animation, its cues, and how it is drawn.

In a hook room (``hook: yes``) the hook is a move the player has
(RULES.md, "The hook").  This module is everything the game adds for it;
the scene calls in at a few points (a key, a queued hook, a move, the HUD).

- **Keys.**  Hold the ``hook`` key (Shift) and press an arrow: the hook
  flies the way that arrow means on screen, in the view on screen (an arrow
  that would mean w fires it ana or kata).  Tap the ``hook`` key alone and
  it is *ready*: the next arrow fires it (tap again: not ready).  The
  ``hook_ana`` and ``hook_kata`` keys (T and G) fire it along w in any view.
  Outside hook rooms none of this does anything: Shift and an arrow step.
- **The flight.**  :func:`flight` follows the hook's line from the player
  through the rules' own tables (:func:`anabasis.engine.rules.tables`),
  the way ``rules.hook_movers`` does, to say where it flies and what it
  catches; the engine's :class:`~anabasis.engine.moves.Result` says what
  the move did.  The animation is the throw (the line flying out), then the
  engine's frames (the pull and the settle), and for a hook that caught
  nothing the line coming back.  A hook fired ana at a block pulls you up
  and you fall back: the engine calls that no move, and the game shows the
  pull and the fall it worked out from the rules' public functions.
- **The picture.**  The line is drawn over the room from the player's hand
  to the hook's head, projected through the slice's basis and the camera
  (as the out-of-slice markers are), so it turns with a turn.  Where the
  line runs along the hidden axis it would be a point: it is drawn up the
  screen (ana) or down (kata) in w's gold instead, with the axis named.
  A crate resting on your head in w (just ana of you, held there by you)
  gets a tag in every view: a gold bracket over the player and the words.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pygame

from anabasis.app.play import cues, markers
from anabasis.app.viewer import animation
from anabasis.engine import moves as why
from anabasis.engine import rules
from anabasis.engine.moves import HOOKS, Result
from anabasis.engine.world import State
from anabasis.picture import views

#: The keymap's actions for the hook (see :data:`anabasis.app.settings.keymap.DEFAULT_KEYS`).
ACTIONS = ("hook", "hook_ana", "hook_kata")
#: The hook moves the w keys fire.
W_KEYS = {"hook_ana": "hA", "hook_kata": "hK"}
#: What a hook key says in a room without the hook.
NO_HOOK_TEXT = "no hook in this room: the hook is in hook rooms only (chapter 4)"

THROW_S = 0.06  #: seconds a cell of the hook's flight out (or back) takes
THROW_MIN_S = 0.12  #: the shortest throw: even a hook caught beside you is seen to fly
PULL_S = 0.22  #: the pull (you or the crate along the line): slower than a step, to watch

LINE_COLOUR = (235, 240, 250)  #: the line itself: a pale steel no cell of the room is
HEAD_COLOUR = (255, 120, 60)  #: the hook's head
W_GOLD = views.AXIS_COLOURS["w"]

#: What the game says of a hook that did nothing (the engine's why, in a hook's words).
MISS_WORDS = {
    why.HOOK_FLEW_OUT: "the hook flew out of the room: it catches only on blocks and crates",
    why.HOOK_TOO_CLOSE: "the hook caught right beside you: it pulls only from 2 cells or more",
    why.HOOK_CAUGHT_NOTHING: "the hook went round the room and caught nothing",
    why.FELL_BACK: "the hook pulled you up, and you fell back the way it flew: "
                   "only a ramp under your feet keeps you up",
}
READY_TEXT = "hook ready: an arrow fires it"
HEAD_TEXT = "a crate rests on your head in w: step away and it falls kata where you stood"


# -- which hook a key means ------------------------------------------------------------


def arrow_to_hook(b: np.ndarray, yaw: float, arrow: str) -> str | None:
    """The hook an arrow fires on screen: ``hR hL hD hU``, ``hA`` / ``hK`` where the arrow
    means w, None where it means z (only mid-turn; the game waits for the turn).

    >>> arrow_to_hook(views.view_basis("stand"), 0.0, "up")
    'hU'
    >>> both = views.view_basis("both")  # w along the floor's depth: away is kata here
    >>> arrow_to_hook(both, 0.0, "up"), arrow_to_hook(both, 0.0, "down")
    ('hK', 'hA')
    """
    move = views.arrow_to_move(b, yaw, arrow)
    if move in rules.STEPS:
        return "h" + move
    if move != "w":
        return None
    # the arrow's way along w: the sign of the slice axis it rounds to (as the steps do)
    return "hA" if views.arrow_direction(b, yaw, arrow)[3] > 0 else "hK"


def hook_to_arrow(b: np.ndarray, yaw: float, move: str) -> str | None:
    """The arrow that fires the hook ``move`` with the hook key held (None: none does)."""
    for arrow in ("up", "down", "left", "right"):
        if arrow_to_hook(b, yaw, arrow) == move:
            return arrow
    return None


# -- the keys ---------------------------------------------------------------------------


class HookKeys:
    """The hook key's state in one room: held (a modifier), or tapped (ready: a mode)."""

    def __init__(self, active: bool):
        self.active = active  #: a hook room: the keys mean something
        self.held = False
        self.ready = False  #: tapped alone: the next arrow fires the hook
        self._used = False  #: another key went with the hook key while it was held

    def down(self, play, action: str) -> bool:
        """A key went down; True when the hook took it (the scene does nothing more).  In a
        room without the hook its T and G say so (a blind player found them silent); Shift
        alone says nothing (it goes with other keys)."""
        if action in W_KEYS and not self.active:
            play.say(NO_HOOK_TEXT, "dim", 2.5)
            return True
        if not self.active or action is None:
            return False
        if action == "hook":
            if not self.held:
                self.held, self._used = True, False
            return True
        if action in W_KEYS:
            play.queue.append(("move", W_KEYS[action]))
            self.ready = False
            return True
        if action in ("up", "down", "left", "right") and (self.held or self.ready):
            self._used = True
            self.ready = False
            if not play.won:
                play.queue.append(("hook", action))
            return True
        if self.held:
            self._used = True  # Shift+/ is the hint, not a tap of the hook
        if action in ("undo", "restart", "back"):
            self.ready = False
        return False

    def up(self, play, action: str) -> None:
        """A key went up: the hook key let go after a tap alone makes it ready (or not)."""
        if not self.active or action != "hook" or not self.held:
            return
        self.held = False
        if not self._used:
            self.ready = not self.ready
            if self.ready:
                play.say(f"{READY_TEXT} · {key_name(play, 'hook')} again: not", "info", 2.5)
            else:
                play.say("the hook is put away", "dim", 1.2)


def key_name(play, action: str) -> str:
    """The first key bound to ``action``, as the player reads it (the keymap's label)."""
    return play.app.keymap.label(action) or action


def greet(play) -> None:
    """A hook room not solved yet says, as it opens, how the hook is fired."""
    if not play.game.hook or play.demo or play.opened.key in play.app.progress.solved:
        return
    play.say(f"this room has the hook: hold {key_name(play, 'hook')} and press an arrow · "
             f"{key_name(play, 'hook_ana')} / {key_name(play, 'hook_kata')}: ana / kata",
             "info", 6.0)


KEYS_LINE = "{hook}+arrow hook · {hook_ana} hook ana · {hook_kata} hook kata"


def keys_line(play) -> str:
    """The hook's keys in the HUD's one line (only in a hook room)."""
    return play.app.keymap.text(KEYS_LINE)


#: The help's lines on the hook (only in a hook room), each ``{action}`` written as its key.
HELP_LINES = [
    "{hook} + an arrow: fire the hook that way on screen (an arrow that means w: ana or kata)",
    "tap {hook} alone: the hook is ready, the next arrow fires it · {hook_ana} / {hook_kata}:"
    " ana / kata",
    "The hook (hook rooms): it flies to the first block or crate 2 or more cells away.",
    "A crate it catches comes to the cell beside you; a block pulls you to the cell before it.",
    "Fired ana it fetches a crate onto your head in w, but it cannot lift you: you fall back.",
    "{step_marks} held: a \u21a9 badge on what each hook would catch, and what it would do",
]


def hint_words(play, move: str) -> str:
    """The keys that fire the hook ``move`` now, for the hint line (never empty)."""
    if move in ("hA", "hK"):
        action = "hook_ana" if move == "hA" else "hook_kata"
        return f"{key_name(play, action)} (the hook {'ana' if move == 'hA' else 'kata'})"
    b = views.view_basis(play.sight.view)  # the view a queued key is played in
    arrow = hook_to_arrow(b, play.sight.camera.yaw, move)
    if arrow is None:
        return f"turn the view (V) and fire the hook {HOOK_WORDS[move]}"
    return f"{key_name(play, 'hook')}+{key_name(play, arrow)} (the hook)"


HOOK_WORDS = {"hR": "along +x", "hL": "along -x", "hD": "along +y", "hU": "along -y",
              "hA": "ana", "hK": "kata"}


# -- the flight --------------------------------------------------------------------------


class Flight(NamedTuple):
    """Where a hook flies from a state, and what it meets (the rules' line, followed)."""

    move: str
    origin: tuple  #: the player's cell when fired
    delta: tuple  #: one cell along the line
    cells: int  #: cells flown out (to the cell it caught on, or the last before the edge)
    caught: str  #: "block", "crate", "near" (beside you: nothing to pull), or "" (nothing)
    #: set by :func:`fire`: the timeline it is drawn on, and its parts' seconds
    timeline: object = None
    throw_s: float = 0.0
    pull_s: float = 0.0  #: the pull's seconds (0: no pull)
    back: bool = False  #: the line comes back empty at the end
    pulled: str = ""  #: "you" or "crate": what the pull moves


def flight(room, state: State, move: str) -> Flight:
    """The hook ``move`` fired from ``state``: how far it flies and what it catches.

    >>> from anabasis.formats import levelfile
    >>> room = levelfile.parse("hook: yes\\n\\n#### ####\\n\\n#### @.*#\\n")
    >>> f = flight(room, rules.start(room).state, "hR")
    >>> f.cells, f.caught
    (3, 'block')
    """
    t = rules.tables(room)
    k, what, _ = rules.hook_line(t, t.index(state.player), {t.index(c) for c in state.crates},
                                 rules.MOVE_CODES[move][1])
    if what in ("out", ""):  # out of the grid (drawn to the room's edge), or no catch
        return Flight(move, state.player, HOOKS[move], k, "")
    return Flight(move, state.player, HOOKS[move], k, what if k >= 2 else "near")


def _fell_back_frames(room, state: State, move: str, gravity_w: bool) -> tuple:
    """What the engine calls no move, shown: the pull up, then the fall back (its frames)."""
    t = rules.tables(room, gravity_w)
    crates = [t.index(c) for c in state.crates]
    player = t.index(state.player)
    to = rules.hook_movers(t, player, crates, rules.MOVE_CODES[move][1])
    pulled = t.state(to, crates)
    settled = rules.settle(room, pulled, gravity_w=gravity_w, trace=True)
    return (pulled, *settled.frames)


def fire(play, move: str) -> bool:
    """Play the hook ``move`` in scene ``play``: the engine's move, its animation and cues."""
    before = play.game.state
    result = play.game.play(move)
    play.played(result)
    if result.why == why.ROOM_OVER:
        return False  # the room is won: nothing more moves, nor flies
    f = flight(play.room, before, move)
    throw_s = max(THROW_MIN_S, THROW_S * max(f.cells, 1))
    W, wrap = play.room.size[3], play.room.wrap
    segments = [animation.Segment(before, before, "hook", throw_s)]
    pulled = ""
    if result.moved:
        frames = tuple(result.frames) or (result.state,)
        slip_s = animation.SLIP_S if play.sight.hidden == 3 else animation.FALL_S
        moved = animation.segments_for(before, frames, result.status == "lost", slip_s)
        if moved:
            pulled = "you" if moved[0].after.player != before.player else "crate"
            moved[0].duration = max(moved[0].duration, PULL_S)
        segments += moved
        play.landing = result
    elif result.why == why.FELL_BACK:
        frames = _fell_back_frames(play.room, before, move, play.game.gravity_w)
        moved = animation.segments_for(before, frames, False, animation.FALL_S)
        if moved:
            pulled = "you"
            moved[0].duration = max(moved[0].duration, PULL_S)
        segments += moved
        play.landing = None
    back = not pulled
    if back:
        segments.append(animation.Segment(before, before, "hook", throw_s))
    timeline = animation.Timeline(segments, W, wrap)
    pull_s = segments[1].duration if pulled else 0.0
    play.flight = f._replace(timeline=timeline, throw_s=throw_s, pull_s=pull_s, back=back,
                             pulled=pulled)
    play.pending = _cues(before, result, timeline, f, throw_s, W, wrap)
    if result.moved and result.status != "lost" and _on_head(play.room, result.state):
        play.pending.append(cues.Cue("head", timeline.total, HEAD_TEXT))
    play.timeline = timeline
    play.anim_t = 0.0
    play._due(0.0)
    return result.moved


def _cues(before: State, result: Result, timeline, f: Flight, throw_s: float, W: int,
          wrap: bool) -> list:
    """The hook's cues: the throw, then the catch or the miss, then what the settle did."""
    out = [cues.Cue("throw", 0.0)]
    if result.moved:
        out.append(cues.Cue("catch", throw_s))
        # the settle's cues, read off the engine's frames as for any move (its first
        # segment is the throw, not a step: no step is heard)
        out += [c for c in cues.of_move(before, result, timeline, W, wrap) if c.kind != "step"]
    elif result.why == why.FELL_BACK:
        out.append(cues.Cue("catch", throw_s))
        out.append(cues.Cue("miss", timeline.total, MISS_WORDS[why.FELL_BACK], why=result.why))
    else:
        out.append(cues.Cue("miss", throw_s, MISS_WORDS.get(result.why, result.why),
                            why=result.why))
    return sorted(out, key=lambda c: c.at)


# -- where the line is, and drawing it -----------------------------------------------------


def line_at(f: Flight, t: float, pose) -> tuple[tuple, tuple] | None:
    """The hook's line ``t`` seconds into its timeline: (from, to) as 4D points, or None
    once it is gone (after the pull, or back).  ``pose`` is the movers as drawn then."""
    hand = tuple(float(c) for c in pose.player)
    d = np.array(f.delta, float)
    origin = np.array(f.origin, float)
    # to the face of what it caught, or to the edge of the room where it caught nothing
    reach = f.cells + (0.5 if f.caught == "" else -0.5)
    if t < f.throw_s:
        head = origin + d * reach * (t / f.throw_s)
        return hand, tuple(head)
    t -= f.throw_s
    if f.pull_s:
        if t >= f.pull_s:
            return None
        if f.pulled == "crate":
            g = t / f.pull_s
            g = g * g * (3 - 2 * g)
            start = origin + d * f.cells
            head = start + (origin + d - start) * g
            return hand, tuple(head - 0.5 * d)
        return hand, tuple(origin + d * reach)
    if f.back:
        rest = f.timeline.total - f.throw_s - t
        if rest <= 0:
            return None
        head = origin + d * reach * (rest / f.throw_s)
        return hand, tuple(head)
    return None


def _on_head(room, state: State) -> tuple | None:
    """The crate resting on the player's head in w (the cell just ana, held by the player),
    or None."""
    return room.on_head(state.player, state.crates)


def on_head(play) -> tuple | None:
    """The crate on the head of the player in scene ``play`` (at rest), or None."""
    if not play.game.hook or play.animating:
        return None
    return _on_head(play.room, play.game.state)


def screen_line(play, size, b=None, camera=None):
    """The line as drawn now, in window pixels: ((x0, y0), (x1, y1), along_hidden), or None.

    ``along_hidden`` is the hidden axis's sign (+1 ana / -1 kata ...) when the line
    runs along it and would be a point; it is then drawn up or down the screen."""
    f = getattr(play, "flight", None)
    if f is None or play.timeline is not f.timeline:
        return None
    pose = play.pose()
    ends = line_at(f, play.anim_t, pose)
    if ends is None:
        return None
    b = play.sight.basis() if b is None else b
    camera = play.sight.camera if camera is None else camera
    drawn = pose.player
    a = markers.project(ends[0], drawn, b, camera, size)
    z = markers.project(ends[1], drawn, b, camera, size)
    if a[2] <= 0 or z[2] <= 0:
        return None
    length = math.dist(ends[0], ends[1])
    px = math.hypot(z[0] - a[0], z[1] - a[1])
    W, H = size
    if length > 0.2 and px < 0.02 * H * length:
        # along the hidden axis: up the screen for +, down for -, a cell's worth per cell
        sign = 1 if sum(ends[1][i] - ends[0][i] for i in range(4)) > 0 else -1
        cell_px = _cell_pixels(drawn, b, camera, size)
        return (a[0], a[1]), (a[0], a[1] - sign * length * cell_px), sign
    return (a[0], a[1]), (z[0], z[1]), 0


def _cell_pixels(drawn, b, camera, size) -> float:
    """About how many pixels one cell spans on screen at the player."""
    p = markers.project(drawn, drawn, b, camera, size)
    up = list(drawn)
    up[2] += 1.0
    q = markers.project(up, drawn, b, camera, size)
    return max(12.0, math.hypot(q[0] - p[0], q[1] - p[1]))


def shown(play, size) -> tuple | None:
    """The hook's part of the HUD as a frozen value (the HUD is drawn again only when it
    changes): (its line in pixels, or None; the crate-on-your-head tag's (x, y, cell), or
    None; the ready words, or ""), or None outside hook rooms."""
    if not play.game.hook:
        return None
    line = screen_line(play, size)
    if line is not None:
        (x0, y0), (x1, y1), hidden = line
        line = ((round(x0), round(y0)), (round(x1), round(y1)), hidden)
    head = None
    if on_head(play) is not None:
        b, camera = play.sight.basis(), play.sight.camera
        drawn = play.pose().player
        x, y, _ = markers.project(drawn, drawn, b, camera, size)
        head = (round(x), round(y), round(_cell_pixels(drawn, b, camera, size)))
    keys = play.hook_keys
    ready = READY_TEXT if keys.ready else "hook: an arrow fires it" if keys.held else ""
    return line, head, ready


def draw(ov, shown: tuple, s: float) -> None:
    """Draw the hook's part of the HUD, :func:`shown`'s value, into overlay ``ov``."""
    line, head, ready = shown
    if line is not None:
        a, z, hidden = line
        width = max(3, int(4 * s))
        colour = W_GOLD if hidden else LINE_COLOUR
        pygame.draw.line(ov.surface, (10, 12, 18), a, z, width + 4)
        pygame.draw.line(ov.surface, colour, a, z, width)
        pygame.draw.circle(ov.surface, HEAD_COLOUR, (int(z[0]), int(z[1])), int(7 * s) + 2)
        if hidden:
            way = "ana" if hidden > 0 else "kata"
            ov.text(f"hook {way}", (int(z[0]) + int(12 * s), int(z[1]) - int(9 * s)),
                    int(17 * s), W_GOLD)
    if head is not None:
        _draw_head(ov, head, s)
    if ready:
        W, H = ov.size
        ov.text(ready, (W // 2, int(H * 0.72)), int(20 * s), HEAD_COLOUR, anchor="midtop")


HEAD_WORDS = "\u2191 crate on your head, 1 ana"


def _head_parts(ov, head: tuple, s: float) -> tuple[pygame.Rect, pygame.Rect]:
    """Where the tag of a crate on the player's head goes: its crate's square, its words."""
    x, y, cell = head
    top = y - cell * 0.9
    r = int(cell * 0.45)
    box = pygame.Rect(0, 0, 2 * r, 2 * r)
    box.midbottom = (int(x), int(top))
    size = int(17 * s)
    words = pygame.Rect(box.right + int(8 * s), box.top, ov.width_of(HEAD_WORDS, size),
                        size + 2)
    return box, words


def head_rects(ov, play, s: float) -> list[pygame.Rect]:
    """The window rectangles the tag of a crate on the head of the player in scene ``play``
    covers ([] when there is none): what the step marks keep clear of."""
    if on_head(play) is None:
        return []
    b, camera = play.sight.basis(), play.sight.camera
    drawn = play.pose().player
    x, y, _ = markers.project(drawn, drawn, b, camera, ov.size)
    head = (round(x), round(y), round(_cell_pixels(drawn, b, camera, ov.size)))
    box, words = _head_parts(ov, head, s)
    return [box.inflate(8, 8), words.inflate(6, 4)]


def _draw_head(ov, head: tuple, s: float) -> None:
    """The tag of a crate on the player's head in w: a crate's square over the player, a
    stem down to it, the words; ``head`` is the player's (x, y) on screen and a cell's
    pixels."""
    x, y, cell = head
    box, words = _head_parts(ov, head, s)
    pygame.draw.rect(ov.surface, (10, 12, 18), box.inflate(6, 6), max(3, int(5 * s)))
    pygame.draw.rect(ov.surface, markers.CRATE_COLOUR, box, max(3, int(4 * s)))
    pygame.draw.line(ov.surface, W_GOLD, (int(x), box.bottom), (int(x), int(y - cell * 0.4)),
                     max(2, int(3 * s)))
    ov.text(HEAD_WORDS, words.topleft, int(17 * s), W_GOLD)
