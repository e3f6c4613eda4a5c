"""Reading a room in play: the slice map, the step marks and the plan view, and their settings.

:class:`Reading` is one per :class:`~anabasis.app.play.scene.Play`: what is
shown (from the saved settings and the room), the map's cached picture
(:class:`~anabasis.app.viewer.slicemap.SliceMap`: the room's static part drawn
once, the movers over it only when they move), the marks of the position on
screen (:class:`~anabasis.app.play.stepmarks.Cache`: the engine asked once a
state), and the camera to go back to from the plan view.  The HUD draws from
it (:func:`draw`); the scene hands it keys (:meth:`Reading.key`).  The badges,
like the map, take their colours from the settings' palette
(:func:`~anabasis.app.play.stepmarks.colour_of`); their glyph and word are the
same in every palette.

Cost lessons (1280 x 720, llvmpipe on two cores shared with other work; the least
of 200 runs, level 7 at rest):

- The room's box was projected corner by corner, each corner through a camera
  made again (sixteen ``camera.frame()`` calls and their cross products): 0.7 ms
  of every HUD drawn, map or not.  One projector for all sixteen: 0.2 ms.  The
  badges the same way (one projector, and which marks have a badge kept while the
  view and the marks stay): 0.55 to 0.85 ms a HUD with badges, now about 0.3.
- The map itself costs little on the CPU: it was already kept (its static part
  drawn once, the movers on a copy of it when they move); remade during a move
  0.07 ms, faded over the room 0.07, put on the HUD 0.05.  Its words are drawn
  once each now (the movers' copy wrote "you" again at every step of a move).
- The map was copied onto the HUD's surface at every HUD drawn and went up to the GL
  with it, tile by tile: its 512 x 128 pixels, 0.2 to 0.3 ms a HUD, and the copy
  0.15.  It is a layer of its own now (``Overlay.show``): a texture sent only when
  the map's picture is a new one, blended under the HUD's drawing, never copied.
- Every HUD's upload found its used tiles first (``used_rects``): 0.74 ms, most of
  it numpy's calls row by row; walked as lists, 0.28.  Its tiles went up through a
  transposing copy; now row by row as they lie.  Both count for every HUD, map or
  not.
- What is left (means over ``anabasis bench``'s play session): the map placed and
  its picture made again while a move plays, about 0.3 ms a HUD drawn (llvmpipe's
  window draws a HUD every third frame or so while the room moves); the badges,
  0.15; and the GL's blend of the map's pixels under the HUD, about 2 ns a pixel
  (0.2 ms a frame for level 7's map).
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import NamedTuple

import numpy as np
import pygame

from anabasis.app.play import hook, markers, stepmarks
from anabasis.app.viewer import slicemap
from anabasis.app.viewer.projection import project_many
from anabasis.app.viewer.slicemap import SliceMap
from anabasis.engine.cells import BLOCK, EMPTY, RAMPS
from anabasis.picture import pose, views
from anabasis.picture.pose import CRATE_INSET, drawn_w, under_ceiling

#: Where the map may reach: this share of the window's width and height, at most.
MAP_W, MAP_H = 0.40, 0.34
#: The map's alpha, as a share of its own, where the room lies under it and no corner is
#: clear of the room: the room shows through, the map's cells and words still read.
MAP_FADE = 0.55
PLAN_PITCH = views.Camera.MAX_PITCH  #: the plan view looks (nearly) straight down
#: The plan view frames the whole room within this share of the window: clear of the key
#: bar below and, but for a corner, of the panels above (a blind player found a hard
#: room's last rows under the key bar at the views' own 0.9)
PLAN_MARGIN = 0.76
MADE_KINDS = ("gen", "daily", "room")  #: rooms the map is on for by default
#: The large map (its key: a big room's cells too small to read in the corner) takes up to
#: this share of the window's width and of its height above the key bar.
LARGE_W, LARGE_H = 0.96, 0.96
LARGE_GROUND = (10, 12, 18)  #: the large map's ground, opaque
NEAR_SLICES = 3  #: the large map's second press: the pawn's slice and one each side


def map_wanted(setting: str, room, kind: str) -> bool:
    """Whether the slice map shows, by the setting: ``auto`` shows it where it helps (a room of
    more than two slices, a made or shared room).

    >>> from anabasis.engine.world import Room
    >>> room = Room.empty((3, 1, 1, 3), (0, 0, 0, 0), (2, 0, 0, 0))
    >>> map_wanted("auto", room, "level"), map_wanted("off", room, "level")
    (True, False)
    """
    if setting in ("on", "off"):
        return setting == "on"
    return room.size[3] > 2 or kind in MADE_KINDS


#: The rooms that open on the large map, by the setting ``map_opens``' "large".
OPENS_LARGE_KINDS = ("gen", "daily")


def opens_large(setting: str, kind: str) -> bool:
    """Whether a room of ``kind`` opens on the large map: a made room, by the setting.

    >>> opens_large("large", "gen"), opens_large("large", "level"), opens_large("corner", "gen")
    (True, False, False)
    """
    return setting == "large" and kind in OPENS_LARGE_KINDS


#: The rooms the step marks show in without their key, by the settings' "auto": the
#: campaign's levels and the rooms the game made (both blind playtesters looked for them
#: in a hard made room); a room shared by its code shows them while the key is held, as
#: its maker may mean the reading to be the puzzle.
MARKED_KINDS = ("level", "gen", "daily")


def marks_wanted(setting: str, kind: str) -> bool:
    """Whether the step marks show without their key held: ``auto`` in the campaign's levels
    and the made rooms (:data:`MARKED_KINDS`), ``on`` always, ``held`` never.

    >>> marks_wanted("auto", "gen"), marks_wanted("auto", "room"), marks_wanted("held", "level")
    (True, False, False)
    """
    if setting == "on":
        return True
    return setting == "auto" and kind in MARKED_KINDS


#: The map's dark and odd cells, as a room's first shows them in the corner map (which has
#: no key: blind players read its dark cells as pits until they opened the large map), in
#: the order said (:func:`map_news`).
MAP_NEWS = (("crossed", "a bare dark cell: a ramp beside steps you over it"),
            ("below", "a dim wedge: a ramp 1 kata"), ("out", "a pit with \u2715: slip, fall out"),
            ("gap", "\u2715: fall out"),
            ("pit", "a rimmed pit: slip kata"),
            # (level 6's shaft: its bars were said by the large map's key alone, and blind
            # players learnt them from the level's subtitle, t353, t357)
            ("deep", "bars in a pit: you slip 2 slices or more, a bar a slice"),
            ("hollow", "a notch: a floor under a roof"),
            ("lifts", "a ramp's lit tip: off it you go ana"),
            ("held", "a crate-brown frame: a crate 1 kata holds that floor"),
            ("tag", "a dark tag at a cell's corner: where a step goes"))
#: The most kinds one message names.
MAP_NEWS_AT_ONCE = 2


#: What a room opening on the large map says (:func:`map_news`), and how it begins.
LARGE_OPENING_HEAD = "every slice of the room, from above"
LARGE_OPENING = LARGE_OPENING_HEAD + ": the arrows move you here too · {back}the room in 3D"
#: How :func:`map_news` begins.
MAP_NEWS_HEAD = "on the map: "


def map_news(play) -> bool:
    """As a room opens with its map in the corner and no other message, say what the map's
    cells of kinds not said before this session mean (two at most, the rest another time):
    "on the map: a bare dark cell: a ramp crosses · a dim wedge: a ramp 1 kata · B: its key".
    True if it was said."""
    reading, app = play.reading, play.app
    if play.demo or (play.message and play.message_left > 0):
        return False
    if reading.large:  # a made room opens on the large map, its key under it: said so
        key = app.keymap.label("large_map")
        play.say(LARGE_OPENING.format(back=f"{key}: " if key else ""),
                 "info", 8.0, until="move")
        return True
    if not reading.show_map:
        return False
    kinds = reading.slice_map(corner_box(play.app.overlay)).kinds  # (the corner's own map)
    new = [(kind, words) for kind, words in MAP_NEWS
           if kind in kinds and kind not in app.map_told][:MAP_NEWS_AT_ONCE]
    if not new:
        return False
    app.map_told.update(kind for kind, _ in new)
    key = app.keymap.label("large_map")
    play.say(MAP_NEWS_HEAD + " · ".join(words for _, words in new)
             + (f" · {key}: its key" if key else ""), "info", 7.0, until="move")
    return True


class Reading:
    """What a room being played shows to be read: the map, the marks, the plan view."""

    def __init__(self, play):
        self.play = play
        progress = play.app.progress
        self.show_map = map_wanted(progress.slice_map, play.room, play.opened.kind)
        self.marks_on = marks_wanted(progress.step_marks, play.opened.kind)
        self.held = False  #: the step marks' key is held down
        self.plan_from: views.Camera | None = None  #: the camera before the plan view
        self.plan_for: tuple | None = None  #: the view and the pawn's cell it began at
        self.marks = stepmarks.Cache(play.room)
        self._map: SliceMap | None = None
        self._map_for = None
        self._anchor = None  #: (the camera's aim, the pawn's place) when the aim was last set
        self._aimed = None  #: the aim as this last set it
        #: the pawn's place when a turn began (its framing's, kept to the turn's end)
        self._turn_pose = None
        self.map_rect: pygame.Rect | None = None  #: where the map was last drawn, in the window
        #: the step badges' boxes as the HUD last drew them (clear of its panels and the
        #: map), in the order of :meth:`badged`
        self.badge_rects: list[pygame.Rect] = []
        #: where the lines of the badges moved off their cells end (on those cells)
        self.badge_ends: list[tuple[int, int]] = []
        #: the boxes of the tops' heights written last (:func:`paint_top_heights`)
        self.height_rects: list[pygame.Rect] = []
        #: the boxes of the markers' words, and the gizmo's (its "view:" caption's too), as
        #: the HUD last drew them
        self.word_rects: list[pygame.Rect] = []
        self._near_part: tuple | None = None  #: (its key, :meth:`near_part`'s picture)
        #: the markers as the HUD last placed them (:func:`markers.place`'s)
        self.placed: list = []
        self.gizmo_rect: pygame.Rect | None = None
        self.map_box: tuple[int, int] = (0, 0)  #: the box it was fitted to
        self.map_corner = MAP_HOME  #: where it is: moved off the room where it covers it
        #: the view and the room's box on screen the map's corner was chosen for: chosen
        #: again only for another, else moved only off the pawn (:func:`draw_map`)
        self.map_for: tuple | None = None
        #: while a move plays, (the index of the map's first mover layer, how many)
        self.sprites_at: tuple[int, int] | None = None
        self._faded = None  #: (its key, the map faded over the room, the picture it is of)
        #: the map drawn large over the room (its key; not saved: a look, not a setting); a
        #: made room opens on it (the setting ``map_opens``): in two rounds every blind
        #: player pressed B at once there, its 3D slice "mostly walls"
        self.large = opens_large(progress.map_opens, play.opened.kind)
        #: the large map shows the slices near the pawn's, larger (B's second press where
        #: that makes its cells larger: a big room's seven slices at 24 pixels a cell)
        self.near = False
        self._near_kept = False  #: the nearer map's choice while the large map is closed
        self._nearer = None  #: (the large map's box, whether B's second press comes nearer)
        self._grounded = None  #: (the large map on an opaque ground, the picture it is of)
        self._badged = None  #: ((the marks, the basis, the yaw), those with a badge there)
        #: the mouse pointer in the window (None: not over it), and the map drawn last with
        #: the x of its picture at the map's left edge (the nearer map shows a part of it)
        self.pointer: tuple[int, int] | None = None
        self.drawn_map: SliceMap | None = None
        self.drawn_from = 0

    def settings_changed(self) -> None:
        """The settings screen changed the map's or the marks' setting."""
        progress, play = self.play.app.progress, self.play
        shown = self.show_map
        self.show_map = map_wanted(progress.slice_map, play.room, play.opened.kind)
        self.marks_on = marks_wanted(progress.step_marks, play.opened.kind)
        if self.show_map != shown:
            self.reframe()

    def reframe(self) -> None:
        """The map came or went: the room framed again (beside the map, or in the whole
        picture), unless the player zoomed, turns or looks straight down."""
        play = self.play
        sight = play.sight
        if sight.zoomed or sight.turning or self.plan_from is not None:
            return
        play.sight = replace(sight, camera=play._framing(sight))
        self._anchor = self._aimed = None

    # -- what shows -------------------------------------------------------------------

    @property
    def showing_marks(self) -> bool:
        return self.marks_on or self.held

    @property
    def in_plan(self) -> bool:
        return self.plan_from is not None

    def slice_map(self, box: tuple[int, int], most: int = slicemap.MAX_CELL) -> SliceMap:
        """The map fitting ``box``, its cells at most ``most`` pixels (made again only when
        the box, the largest cell or the palette changes)."""
        palette = self.play.app.progress.palette
        if self._map is None or self._map_for != (box, most, palette):
            self._map = SliceMap(self.play.room, box, palette, most)
            self._map_for = (box, most, palette)
        return self._map

    def shown_map(self) -> SliceMap:
        """The map as last fitted to its place: in its corner, or large (its cells larger)."""
        return self.slice_map(self.map_box,
                              slicemap.LARGE_CELL if self.large else slicemap.MAX_CELL)

    def faded(self, picture: pygame.Surface, part: pygame.Rect, hull=None) -> pygame.Surface:
        """``picture`` with its ``part`` (in its own pixels) faded to :data:`MAP_FADE` of its
        alpha, so that the room under it shows through (kept while neither changes); where
        ``hull`` (a polygon, in its own pixels) is given, only the part in it.  Faded over
        the whole of the room's box, a corner map moved over the empty sky by it showed a
        dark square over the goal's slice, which a blind player took for a fault (t362)."""
        key = (tuple(part), None if hull is None else tuple(map(tuple, hull)))
        if self._faded is None or self._faded[0] != key or self._faded[2] is not picture:
            out = picture.copy()
            fade = (255, 255, 255, round(255 * MAP_FADE))
            if hull is None:
                out.fill(fade, part, special_flags=pygame.BLEND_RGBA_MULT)
            else:
                mask = pygame.Surface(picture.get_size(), pygame.SRCALPHA, 32)
                mask.fill((255, 255, 255, 255))
                clip = mask.get_clip()
                mask.set_clip(part)
                pygame.draw.polygon(mask, fade, hull)
                mask.set_clip(clip)
                out.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            self._faded = (key, out, picture)
        return self._faded[1]

    def large_box(self) -> tuple[int, int]:
        """The box the large map fits (:data:`LARGE_W` and :data:`LARGE_H` of the window
        between the top and the key bar)."""
        ov = self.play.app.overlay
        return large_size(ov.size[0], key_bar_top(ov), large_top(ov))

    def near_map(self) -> SliceMap:
        """The map of every slice in one row, at cells that let :data:`NEAR_SLICES` of them
        fill the large map's box (:meth:`large_box`): :func:`draw_near` shows those
        round the pawn's."""
        return self.slice_map(self.near_box(self.large_box()), slicemap.LARGE_CELL)

    def near_part(self, smap: SliceMap, whole: pygame.Surface, left: int,
                  right: int) -> pygame.Surface:
        """The nearer map's picture: the slices of ``whole`` (the map of every slice, as
        drawn) from ``left`` to ``right``, over its foot laid out anew for that width (cut
        from the whole, the key lost its first band and half a glyph); kept while neither
        changes."""
        if self._near_part is None or self._near_part[0][0] is not whole \
                or self._near_part[0][1:] != (left, right):
            width, foot_top = right - left, smap.foot_top
            part = pygame.Surface((width, whole.get_height()), pygame.SRCALPHA, 32)
            part.fill((*LARGE_GROUND, 255))  # (opaque, as the whole is: :meth:`grounded`)
            part.blit(whole, (0, 0), pygame.Rect(left, 0, width, foot_top))
            part.blit(smap.foot(width), (0, foot_top))
            self._near_part = ((whole, left, right), part)
        return self._near_part[1]

    def near_box(self, box: tuple[int, int]) -> tuple[int, int]:
        """The box the map of every slice is made to, for :data:`NEAR_SLICES` of them to fill
        the large map's ``box``."""
        W = self.play.room.size[3]
        return box[0] * W // min(W, NEAR_SLICES), box[1]

    def nearer(self) -> bool:
        """Whether the large map's slices near the pawn's show larger than all of them do:
        by a third at least (a big room's; a small one shows all its slices large)."""
        box = self.large_box()
        if self._nearer is None or self._nearer[0] != box:
            # (asked by the key line at each HUD draw: the two layouts worked out once a box;
            # the map itself keeps one picture, and asking both made each again every time)
            size, wrap = self.play.room.size, self.play.room.wrap
            every = slicemap.Layout(size, box, wrap, slicemap.LARGE_CELL).cell
            near = slicemap.Layout(size, self.near_box(box), wrap, slicemap.LARGE_CELL).cell
            self._nearer = (box, near >= every * 4 / 3)
        return self._nearer[1]

    @property
    def map_cornered(self) -> bool:
        """The map shows in its corner (not large): the key line names the large map's key.
        (Named only where the corner's cells were too small for their numbers, the key was
        missed by blind players whose corner map of 11 x 10 cells had its numbers, and was
        still too small to plan on.)"""
        return self.show_map and not self.large and self.map_box != (0, 0)

    def grounded(self, picture: pygame.Surface) -> pygame.Surface:
        """``picture`` on an opaque ground (the large map: nothing of the room through it),
        kept while it does not change."""
        if self._grounded is None or self._grounded[1] is not picture:
            out = pygame.Surface(picture.get_size(), pygame.SRCALPHA, 32)
            out.fill((*LARGE_GROUND, 255))
            out.blit(picture, (0, 0))
            self._grounded = (out, picture)
        return self._grounded[0]

    def badged(self, marks, b, yaw: float) -> tuple[stepmarks.Mark, ...]:
        """Those of ``marks`` with a badge in the picture of basis ``b`` at ``yaw``
        (:func:`stepmarks.shown_in`), worked out again only when one of them changes.  A
        step off the room's edge that is no move has none: a "stays" floating in the
        empty space past the room only said what the edge says."""
        key = (marks, b.tobytes(), yaw)
        if self._badged is None or self._badged[0] != key:
            room = self.play.room
            self._badged = (key, tuple(m for m in marks if stepmarks.shown_in(m, b, yaw)
                                       and not (m.kind == "nothing" and off_room(room, m.cell))))
        return self._badged[1]

    def hovered(self) -> tuple[int, int, int] | None:
        """The map's column ``(x, y, w)`` under the pointer, as the map was drawn last; None
        where the pointer is off the map, between its slices or on its foot."""
        smap, at, rect = self.drawn_map, self.pointer, self.map_rect
        if smap is None or at is None or rect is None or not rect.collidepoint(at):
            return None
        px, py = at[0] - rect.x + self.drawn_from, at[1] - rect.y
        if py >= smap.foot_top:
            return None
        return smap.layout.cell_at(px, py)

    def step_marks(self) -> tuple[stepmarks.Mark, ...]:
        """The four steps' marks from the state on screen (none while a move plays or won)."""
        play = self.play
        if not self.showing_marks or play.animating or play.won or play.demo:
            return ()
        return self.marks.get(play.game.state)

    # -- keys -------------------------------------------------------------------------

    def key(self, action: str, down: bool = True) -> bool:
        """A key of reading (``slice_map``, ``step_marks``, ``plan_view``): True if taken."""
        play = self.play
        if action == "step_marks":
            self.held = down
            return True
        if not down:
            return action in ("slice_map", "plan_view", "large_map")
        if action == "large_map":
            # (on and off, in every room: its second press had come nearer in a big room
            # and given the room back in a small one, and five blind players, pressing it
            # to get back, met the nearer map; nearer is the map's own key while it is large)
            self.large = not self.large
            # the nearer map kept for the large map's next opening (closed, it is not shown:
            # back on the large map, a blind player found his three slices gone, t293)
            self.near, self._near_kept = (self._near_kept, False) if self.large else (
                False, self.near)
            if self.large and play.message.startswith(MAP_NEWS_HEAD):
                # (what the corner map's cells mean, said over the large map's middle: a
                # blind player waited for it to fade; the large map's own key says it)
                play.message_left = 0.0
            if not self.large:
                self.reframe()  # (the room back beside its corner map: a made room opens large)
                if play.message.startswith(LARGE_OPENING_HEAD):
                    play.message_left = 0.0  # (what it said is of the large map, gone)
            return True
        if action == "slice_map" and self.large:
            # (the key line says what it does: nearer, or all the slices again)
            if self.nearer() or self.near:
                self.near = not self.near
            return True
        if action == "slice_map":
            self.show_map = not self.show_map
            progress = play.app.progress
            progress.slice_map = "on" if self.show_map else "off"
            play.app.save_progress()
            play.say("the slice map " + ("on" if self.show_map else "off"), "dim", 1.2)
            self.reframe()
            return True
        if action == "plan_view":
            self.toggle_plan()
            return True
        return False

    def toggle_plan(self) -> None:
        """The camera straight down on the room in the view on screen; again: back."""
        play = self.play
        sight = play.sight
        if self.plan_from is not None:
            back, self.plan_from = self.plan_from, None
            if not (sight.zoomed and self.plan_for == (sight.view, play.game.state.player)):
                # (the camera's turn and tilt come back, framed for the view and the pawn
                # as they are now: a blind player turned the view in the plan view, and its
                # end put back the last view's framing, the room half off the window and
                # under the top right panel)
                back = play._framing(replace(sight, camera=replace(
                    sight.camera, yaw=back.yaw, pitch=back.pitch)))
            play.sight = replace(sight, camera=back)
            self._anchor = self._aimed = None
            play.say("plan view off", "dim", 1.0)
            return
        self.plan_from = sight.camera
        self.plan_for = (sight.view, play.game.state.player)
        down = replace(sight.camera, yaw=0.0, pitch=PLAN_PITCH)
        play.sight = replace(sight, camera=play._framing(replace(sight, camera=down),
                                                         PLAN_MARGIN, gizmo=True))
        play.say("plan view: straight down (again: back)", "dim", 1.6)

    def turn_began(self) -> None:
        """A turn of the view began, framed for the pawn where it stands now."""
        self._turn_pose = np.asarray(self.play.pose().player, float)

    def orbited(self) -> None:
        """The player turned the camera: the plan view is left where it is."""
        self.plan_from = None

    def hold_room(self) -> None:
        """Keep the room still on screen as the pawn moves in it (once a frame).

        The camera's aim is kept from the pawn's centre (the renderer's way); left alone it
        carries the room along with the pawn, toward the window's edge.  So the aim is moved
        against the pawn, from where it was when last set by anything else (the room's
        framing, a turn, the plan view).  Along a wrapped w the picture is the pawn's own
        band of slices, so w is left out there.
        """
        play = self.play
        sight = play.sight
        if sight.turning:
            self._anchor = None
            return
        pose = np.asarray(play.pose().player, float)
        cam = sight.camera
        if self._turn_pose is not None:
            # a turn just ended: its framing was for the pawn where it stood as it began (R
            # pressed mid-turn after a win: the room lay framed for the goal's cell, a blind
            # player found it at the window's foot, cut off)
            self._anchor, self._aimed = (np.asarray(cam.target, float), self._turn_pose), \
                cam.target
            self._turn_pose = None
        if self._anchor is None or cam.target != self._aimed:
            self._anchor = (np.asarray(cam.target, float), pose)
            self._aimed = cam.target
            return
        aim, at = self._anchor
        d = pose - at
        if play.room.wrap:
            d[3] = 0.0
        target = tuple(float(v) for v in aim - d @ sight.basis()[:, :3])
        if target != cam.target:
            play.sight = replace(sight, camera=replace(cam, target=target))
        self._aimed = target


# -- drawing -----------------------------------------------------------------------------


def map_place(ov, bottom: int, pad: int) -> tuple[int, int, int, int]:
    """(left, top, the box's width, height) the map is fitted to: the bottom left, above
    the bottom band (``bottom``)."""
    box = corner_box(ov)
    return pad // 2, bottom, box[0], box[1]


def corner_box(ov) -> tuple[int, int]:
    """The box the corner map is fitted to: :data:`MAP_W` and :data:`MAP_H` of the window."""
    W, H = ov.size
    return int(W * MAP_W), int(H * MAP_H)


def draw_map(ov, play, bottom: int, pad: int, top: int = 0, room=None,
             clear_of=(), keep=(), hull=None) -> pygame.Rect | None:
    """The slice map over the frame: bottom left (its lower edge at ``bottom``), or the
    top left (below ``top``) or the bottom right (left of ``clear_of``'s rectangles, the
    gizmo), whichever covers the least of ``keep`` (:func:`keep_clear`'s rectangles: the
    pawn and the cells of its steps, the goal, the crates in the slice), then of the
    room's box (``room``), chosen for each view and framing; as the pawn moves, it stays
    (no jumping corner to corner mid-level).  Where the room is under it (every place
    had the room under it, or the pawn came under it), that part is drawn faded
    (:data:`MAP_FADE`), so that the map never hides the room: over the room, the part in
    ``hull`` (:func:`room_hull`), where it is given."""
    reading = play.reading
    reading.sprites_at = None
    reading.drawn_map = None  # (set by whichever map is drawn: none, none hovered)
    if reading.large:
        return draw_large(ov, play, bottom, top)
    if not reading.show_map:
        return None
    left, low, bw, bh = map_place(ov, bottom, pad)
    reading.map_box = (bw, bh)
    smap = reading.slice_map((bw, bh))
    pose = play.pose()
    sprites = []
    if play.timeline is not None:
        # a move playing: the map at rest under it once, its movers as small layers that
        # only move (a map drawn again and sent to the GL a few times a move cost frames)
        still, moving = movers_apart(play, pose)
        picture = smap.still(still)
        sprites = smap.sprites(pose.player, moving)
    else:
        picture = smap.picture(pose.player, pose.crates, reading.step_marks())
    W, _ = ov.size
    right = min([r.left for r in clear_of] + [W]) - pad // 2
    places = map_places(picture.get_size(), left, low, top, right)

    def cost(r):
        # the pawn first (``keep[0]``), then how many of the rest, then how much room
        pawn = bool(keep) and r.colliderect(keep[0])
        covered = sum(1 for k in keep[1:] if r.colliderect(k))
        if room is None:
            return pawn, covered, 0
        hit = r.clip(room)
        # (a sliver of the room's box, mostly its empty air, is no cause to leave the
        # corner: the map moved from view to view, and blind players lost it, t340 to t342)
        area = hit.width * hit.height
        return pawn, covered, area if area > MAP_SLIVER * r.width * r.height else 0

    here = places.get(reading.map_corner, places[MAP_HOME])
    # (keyed on the view, the window and the camera's turn, not on the room's box: in a
    # wrapped room that changes with the pawn's slice, and level 7's map jumped for t240
    # with w up as the pawn came to the bottom left; a turn is chosen for once it ends)
    sight = play.sight
    chosen_for = (sight.view, sight.turning, ov.size, round(sight.camera.yaw, 3),
                  round(sight.camera.pitch, 3), sight.zoomed, room is None)
    if reading.map_for != chosen_for and not sight.turning:
        # a new view or framing, the turn over: the place that covers least, its home
        # corner (bottom left) where that ties (chosen mid-turn, as the room swung under
        # it, the map went to another corner and stayed there; blind players, all three of
        # a round, lost it on a turn and looked for it again, t340 to t342)
        best = min(places, key=lambda k: (cost(places[k]), k != MAP_HOME,
                                          k != reading.map_corner))
        if cost(places[best]) <= cost(here):  # moved only where it covers no more
            reading.map_corner, here = best, places[best]
        reading.map_for = chosen_for
    # (as the pawn moves, the map stays where it is: moved off a step's cell or a crate,
    # then off the pawn alone, it jumped corner to corner mid-level, and blind players of
    # every round lost it, t198, t205, t221 and t228 the last; over the pawn it is faded)
    pawn = keep[0].inflate(-keep[0].width * 2 // 5, -keep[0].height * 2 // 5) if keep else None
    over_room = room is not None and here.colliderect(room)
    under = here.clip(room) if over_room else \
        here.clip(pawn) if pawn is not None and here.colliderect(pawn) else None
    if under is not None:
        # nowhere clear of the room (a big room's "both" view), or the pawn itself (its box
        # less its margin: a notch faded in the map's top by a pawn clear of it read as a
        # fault) come under it: faded there (over the room, where the room's box is, not
        # the empty corners of its rectangle)
        inside = [(x - here.left, y - here.top) for x, y in hull] \
            if over_room and hull else None
        picture = reading.faded(picture, under.move(-here.left, -here.top), inside)
    ov.show(picture, here)  # a layer of its own: sent to the GL only when it changes
    reading.drawn_map, reading.drawn_from = smap, 0
    reading.sprites_at = (len(ov.shown), len(sprites)) if sprites else None
    for sprite, at in sprites:
        ov.show(sprite, at.move(here.topleft))
    reading.map_rect = here
    return here


#: :func:`movers_apart`'s last answer: (the pose, the state, the answer); the HUD's key and
#: the map's layers both ask it each frame of a move
_apart: list = [None, None, None]


def map_places(size: tuple[int, int], left: int, low: int, top: int,
               right: int) -> dict[str, pygame.Rect]:
    """Where a corner map of ``size`` may go: its bottom left at (``left``, ``low``), its top
    left below ``top``, its bottom right at (``right``, ``low``); those that fit."""
    box = pygame.Rect((0, 0), size)
    places = {"bottom left": box.move(left, low - box.height),
              "top left": box.move(left, top + 4),
              "bottom right": box.move(right - box.width, low - box.height)}
    return {k: r for k, r in places.items() if r.top >= top and r.left >= 0}


def movers_apart(play, pose) -> tuple[list, list]:
    """The crates of ``pose`` (a move playing) at rest where the move leaves them, and the
    rest: those that move, or have yet to."""
    if _apart[0] is pose and _apart[1] is play.game.state:
        return _apart[2]
    ends = set(play.game.state.crates)
    still, moving = [], []
    for c in pose.crates:
        cell = tuple(int(v) for v in c) if all(float(v) == int(v) for v in c) else None
        (still if cell in ends else moving).append(cell if cell in ends else c)
    _apart[:] = [pose, play.game.state, (still, moving)]
    return still, moving


def move_sprites(ov, play) -> None:
    """Once a frame while a move plays: the map's movers placed where they are drawn now,
    the HUD not drawn again (:meth:`Overlay.place`)."""
    reading = play.reading
    at = reading.sprites_at
    if at is None or play.timeline is None or reading.map_rect is None:
        return
    first, count = at
    pose = play.pose()
    smap = reading.shown_map()
    sprites = smap.sprites(pose.player, movers_apart(play, pose)[1])
    if len(sprites) != count or first + count > len(ov.shown):
        return  # (a crate came to rest: the HUD's key changed, and it is drawn again)
    for i, (sprite, where) in enumerate(sprites):
        if ov.shown[first + i][0] is sprite:
            ov.place(first + i, where.move(reading.map_rect.topleft))


def gizmo_rect(ov) -> pygame.Rect:
    """Where the HUD's axes gizmo and the view's name above it lie, bottom right (about:
    ``hud.draw_shown`` draws them)."""
    W, H = ov.size
    s = ov.scale
    pad = int(18 * s)
    left, top = W - int(168 * s) - pad // 2, H - pad - int(220 * s)  # (the caption's 2 lines)
    return pygame.Rect(left, top, W - left, H - top)


def clear_of_gizmo(play, b: np.ndarray, frame):
    """``frame`` (a function from a part of the picture to the camera that frames the room
    in it), made to keep the room off the axes gizmo where it would lie under it: then the
    part's right edge is brought in to the gizmo's left (a blind player found the plan
    view's room over the gizmo and the view's name)."""
    ov = play.app.overlay
    gizmo = gizmo_rect(ov)

    def framed(area):
        camera = frame(area)
        room = room_rect(play, b, camera, ov.size)
        if room is None or not room.colliderect(gizmo):
            return camera
        left, bottom, right, top = area
        return frame((left, bottom, min(right, -1.0 + 2.0 * gizmo.left / ov.size[0]), top))
    return framed


#: The part of the picture a room is framed in (:func:`views.frame_room`'s ``area``): all
#: but a band along the top, where the title, the message and the score lie, and one along
#: the foot, the key bar (:func:`key_bar_top`) and a message of two lines over it.  Framed
#: in the whole picture in a room camera's narrower view (:data:`views.ROOM_FOV_TALL`), level
#: 7's far edge lay under the message, level 3's front row on the key bar, and level 2's
#: tip of two lines found no place clear of the room and lay over its middle.
ROOM_AREA = (-1.0, -0.66, 1.0, 0.86)


def beside_map(play, b: np.ndarray, frame) -> views.Camera:
    """The camera ``frame(area)`` gives for the whole picture; or, where the corner map
    (on, not large) would lie over the room's picture in each of its places (a big room:
    a blind player read its map faded over the room, and the room under it), the camera
    for the picture's part right of the map or above it, whichever shows the room larger.
    The map then takes its corner clear of the room."""
    whole = frame(ROOM_AREA)
    reading = play.reading
    if not reading.show_map or reading.large:  # (the large map lies over all, on its key)
        return whole
    ov = play.app.overlay
    W, H = ov.size
    pad = int(18 * ov.scale)
    bottom = key_bar_top(ov)
    mw, mh = reading.slice_map(corner_box(ov)).size
    room = room_rect(play, b, whole, (W, H))
    if room is None:
        return whole
    # (the HUD's: the title panel's bottom, about; the gizmo's left edge)
    places = map_places((mw, mh), pad // 2, bottom, int(0.16 * H), gizmo_rect(ov).left)
    corner = places.get(MAP_HOME)
    pawn = keep_clear(play, b, whole, (W, H))[:1]  # (its box reaches past the room's)
    if corner is None or (not corner.colliderect(room) and corner.collidelist(pawn) < 0):
        return whole
    edge = pad // 2 + mw + pad // 2
    top = ROOM_AREA[3]
    right_of = (-1.0 + 2.0 * edge / W, max(-1.0 + 2.0 * (H - bottom) / H, ROOM_AREA[1]), 1.0,
                top)
    above = (-1.0, 1.0 - 2.0 * (bottom - mh - pad // 2) / H, 1.0, top)
    best = min((frame(right_of), frame(above)), key=lambda c: c.distance)
    if any(not p.colliderect(room) for p in places.values()) \
            and best.distance > MOST_SHRINK * whole.distance:
        # (the map moves to a place clear of the room instead: framed beside it, the room
        # would be drawn much smaller)
        return whole
    # (the map stays in its corner from view to view, the room framed beside it: moved to
    # another corner where the room lay under its own, blind players of a round, all three,
    # lost it on a turn and looked for it again, t340 to t342)
    return toward_middle(play, b, best, pygame.Rect(0, bottom - mh, edge, mh), (W, H))


#: The corner map's own corner, where it stays from view to view (:func:`beside_map`) and
#: goes back to where another covers no less (:func:`draw_map`).
MAP_HOME = "bottom left"

#: The share of the corner map's place the room's box may cover and the map stay there
#: (:func:`draw_map`), faded where the room is under it.
MAP_SLIVER = 0.12

#: How much farther (a camera's distance, so how much smaller the room is drawn) the room
#: may be framed beside the corner map to keep the map in its corner (:func:`beside_map`).
MOST_SHRINK = 1.3


def toward_middle(play, b: np.ndarray, camera: views.Camera, keep: pygame.Rect,
                  size: tuple[int, int]) -> views.Camera:
    """``camera`` slid across the window (its distance kept) to bring the room's box as near
    the window's middle as it goes without meeting ``keep`` (the corner map's place).  Framed
    in the part of the window right of the map, level 7's room lay against the right edge
    and the pawn by the gizmo; a blind player saw the room "slide to the right edge"."""
    W, H = size
    room = room_rect(play, b, camera, size)
    if room is None:
        return camera
    want = room.centerx - W // 2  # pixels left to go (right, where negative)
    if abs(want) < 4:
        return camera
    tan = math.tan(math.radians(camera.fov) / 2.0)
    per_pixel = 2.0 * camera.distance * tan / H  # slice units a pixel, at the aim's depth
    def slid(part):
        aim = np.asarray(camera.target) + per_pixel * want * part * camera.right()
        return replace(camera, target=tuple(float(v) for v in aim))

    def clear(cam):
        there = room_rect(play, b, cam, size)
        return there is not None and there.left >= 0 and there.right <= W \
            and not there.inflate(8, 8).colliderect(keep)

    if clear(slid(1.0)):
        return slid(1.0)
    lo, hi = 0.0, 1.0  # the most of the way that stays clear: halved eight times
    for _ in range(8):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if clear(slid(mid)) else (lo, mid)
    return slid(lo) if lo > 0 else camera


def draw_near(ov, play, box: tuple[int, int], bottom: int, top: int) -> pygame.Rect:
    """The large map's second press: the slices near the pawn's in one row, each as large as
    the box's height allows, the pawn's in the middle where it can be (three blind players
    in big made rooms read the large map's 24-pixel cells only by enlarging screenshots:
    the rims of pits against the frames of walls, the heights' numbers)."""
    reading = play.reading
    W, _ = ov.size
    smap = reading.near_map()
    pose = play.pose()
    whole = reading.grounded(smap.picture(pose.player, pose.crates, reading.step_marks()))
    lay = smap.layout
    here_w = int(math.floor(float(pose.player[3]) + 0.5)) % play.room.size[3]
    you = lay.panel_rect(here_w)  # (with its rulers: its row numbers left of it)
    width = min(box[0], whole.get_width())
    # whole slices only: as many as fit, the pawn's in the middle of them
    per = you.width + lay.gap
    fit = max(1, (width - 2 * lay.pad + lay.gap) // per)
    first = min(max(0, here_w - (fit - 1) // 2), max(0, play.room.size[3] - fit))
    left = max(0, lay.panel_rect(first).left - lay.pad)
    right = min(whole.get_width(), lay.panel_rect(min(first + fit, play.room.size[3]) - 1).right
                + lay.pad + (lay.gap if play.room.wrap else 0))
    part = reading.near_part(smap, whole, left, right)
    here = part.get_rect(center=(W // 2, (top + bottom) // 2))
    cover_round(ov, here, bottom)
    ov.show(part, here)
    reading.map_rect = here
    reading.drawn_map, reading.drawn_from = smap, left
    return here


def key_bar_top(ov) -> int:
    """The top of the key bar along the window's foot, in window pixels: where the map,
    the badges and the message end (one line of small text and a pad over and under it)."""
    pad = int(18 * ov.scale)
    return ov.size[1] - int(18 * ov.scale) - 2 * pad


def hover_height(s: float) -> int:
    """The height of the line of words said of the map's cell under the pointer
    (:func:`draw_hover`), in window pixels at scale ``s``."""
    return max(12, int(17 * s)) + int(12 * s)


def large_top(ov) -> int:
    """The top of the large map's room, in window pixels: under a line for the words of the
    cell under the pointer, half a pad under the window's top (the panels wait under the
    large map; over the map's own top, the words hid its first slices' names)."""
    return int(18 * ov.scale) // 2 + hover_height(ov.scale) + 4


def large_size(width: int, bottom: int, top: int) -> tuple[int, int]:
    """The box the large map fits: :data:`LARGE_W` of the window's ``width`` and
    :data:`LARGE_H` of the height between ``top`` and the key bar's top ``bottom``."""
    return int(width * LARGE_W), int((bottom - top) * LARGE_H)


def draw_large(ov, play, bottom: int, top: int) -> pygame.Rect:
    """The map large (:attr:`Reading.large`), centred between ``top`` (the window's top: the
    panels wait) and the key bar's ``bottom``, opaque: the player asked to read the room from
    it, not through it.  Shown whatever the map's setting; its movers and marks as the
    corner's."""
    reading = play.reading
    box = large_size(ov.size[0], bottom, top)
    reading.map_box = box
    pose = play.pose()
    if reading.near:
        return draw_near(ov, play, box, bottom, top)
    smap = reading.slice_map(box, slicemap.LARGE_CELL)
    picture = reading.grounded(smap.picture(pose.player, pose.crates, reading.step_marks()))
    here = picture.get_rect(center=(ov.size[0] // 2, (top + bottom) // 2))
    cover_round(ov, here, bottom)
    ov.show(picture, here)
    reading.map_rect = here
    reading.drawn_map, reading.drawn_from = smap, 0
    return here


#: What lies round the large map, over the room: the picture's own background colour.
ROUND_LARGE = (37, 40, 57)


def cover_round(ov, rect: pygame.Rect, bottom: int) -> None:
    """Cover the room round the large map (``rect``), above the key bar's ``bottom``: a
    room taller than the band the map leaves showed a sliver of itself over the map's top,
    through the words' panel there, and a blind player took it for a glitch (t220).  Over
    the map a layer (the panel's see-through ground is written into the HUD, not blended
    there), kept while its size does not change; round it the HUD, filled."""
    W = ov.size[0]
    if rect.top > 0:
        ov.show(_round_strip((W, rect.top)), pygame.Rect(0, 0, W, rect.top))
    for r in (pygame.Rect(0, rect.bottom, W, bottom - rect.bottom),
              pygame.Rect(0, rect.top, rect.left, rect.height),
              pygame.Rect(rect.right, rect.top, W - rect.right, rect.height)):
        if r.width > 0 and r.height > 0:
            ov.surface.fill((*ROUND_LARGE, 255), r)


@functools.lru_cache(maxsize=4)
def _round_strip(size: tuple[int, int]) -> pygame.Surface:
    """An opaque strip of :data:`ROUND_LARGE` (the same Surface while its size is: a
    layer is sent to the GL again only when its picture is a new one)."""
    strip = pygame.Surface(size, pygame.SRCALPHA, 32)
    strip.fill((*ROUND_LARGE, 255))
    return strip


#: The hovered column's guide on the map: its row and column through every slice, lined
#: (lighter: the cell itself in each slice).
GUIDE, GUIDE_CELL = (200, 206, 224), (255, 255, 255)


def draw_hover(ov, play, s: float, bottom: int) -> pygame.Rect | None:
    """Over the map, the column under the pointer (:meth:`Reading.hovered`): its row and
    column lined through every slice, the same cell boxed in each (blind players counted
    11-wide slices' cells on enlarged screenshots to line slices up), and in a line of words
    just over the map (or under it, where the window's top is too near) what the map draws
    there (:meth:`SliceMap.describe`): they decoded its small glyphs one by one.  The words'
    box, or None where nothing is hovered."""
    reading = play.reading
    cell = reading.hovered()
    smap, rect = reading.drawn_map, reading.map_rect
    if cell is None or smap is None or rect is None:
        return None
    x, y, _ = cell
    lay = smap.layout
    clip = ov.surface.get_clip()
    ov.surface.set_clip(rect)
    shift = (rect.x - reading.drawn_from, rect.y)
    for w in range(play.room.size[3]):
        r = lay.slice_rect(w).move(shift)
        row = pygame.Rect(r.x, r.y + y * lay.cell, r.width, lay.cell)
        column = pygame.Rect(r.x + x * lay.cell, r.y, lay.cell, r.height)
        for band in (row, column):
            pygame.draw.rect(ov.surface, GUIDE, band, 1)
        pygame.draw.rect(ov.surface, GUIDE_CELL, lay.cell_rect(x, y, w).move(shift), 2)
    ov.surface.set_clip(clip)
    pose = play.pose()
    crates = [c for c in pose.crates if all(float(v).is_integer() for v in c)]
    words = smap.describe(*cell, crates, pose.player)
    for mark in reading.step_marks():
        # a step toward this cell: what it does, as its badge in the room says it (the map's
        # tag alone, ⊘, said no reason, and a blind player took a wall for a crate's way on)
        mx, my, _, mw = play.room.norm(mark.cell)
        if (mx, my, mw) == tuple(cell) and not mark.is_hook:
            words += f" · your step here: {mark.label}"
    size = max(12, int(17 * s))
    width = min(ov.size[0] - 8, ov.fonts.get(size).size(words)[0] + int(20 * s))
    box = pygame.Rect(0, 0, width, hover_height(s))
    box.centerx = min(max(rect.centerx, width // 2 + 4), ov.size[0] - width // 2 - 4)
    box.bottom = rect.top - 2
    if box.top < 0:  # (the large map: near the window's top) under it, or over its top
        box.top = rect.bottom + 2
        if box.bottom > bottom:
            box.top = rect.top + 2
    ov.panel(box, (10, 12, 18, 235), 4)
    pygame.draw.rect(ov.surface, GUIDE_CELL, box, 1, border_radius=4)
    ov.text(words, box.center, size, GUIDE_CELL, anchor="center")
    return box


def keep_clear(play, b, camera, size) -> list[pygame.Rect]:
    """What the map must not cover, in window pixels: the pawn (first), the cells its
    steps go to, the goal and each crate, where they are in the slice on screen."""
    room, state = play.room, play.game.state
    drawn = play.pose().player
    project = markers.projecting(drawn, b, camera, size)
    axis, _ = views.axis_of(b[:, 3])
    here = math.floor(drawn[axis] + 0.5)
    px, py, depth = project(state.player)
    if depth <= 0:
        return []
    # a cell's size on screen: the farthest its neighbours along the four axes project
    reach, steps = 12.0, []
    for d in ((1, 0, 0, 0), (-1, 0, 0, 0), (0, 1, 0, 0), (0, -1, 0, 0), (0, 0, 1, 0),
              (0, 0, 0, 1), (0, 0, 0, -1)):
        cell = tuple(p + q for p, q in zip(state.player, d, strict=True))
        x, y, dd = project(cell)
        if dd > 0 and math.isfinite(x) and math.isfinite(y) and math.hypot(x - px, y - py) > 2:
            reach = max(reach, math.hypot(x - px, y - py))
            if d[2] == 0 and not off_room(room, cell):
                # a step's cell (not the one above you; nor one off the room: level 4's
                # step toward you, off its one row with w up, sent the map to another
                # corner, t340 to t342)
                steps.append((x, y))
    pawn = pygame.Rect(0, 0, int(1.2 * reach), int(1.6 * reach))
    pawn.center = (round(px), round(py))
    out = [pawn]
    for x, y in steps:
        r = pygame.Rect(0, 0, int(0.9 * reach), int(0.9 * reach))
        r.center = (round(x), round(y))
        out.append(r)
    crates = state.crates if len(state.crates) <= 64 else ()  # (a crowded room: the pawn's)
    for cell in (room.goal, *crates):
        if cell[axis] % room.size[axis] != here % room.size[axis]:
            continue  # out of the slice: a marker says where (placed clear of the map)
        x, y, dd = project(cell)
        if dd > 0 and math.isfinite(x) and math.isfinite(y):
            r = pygame.Rect(0, 0, int(0.9 * reach), int(0.9 * reach))
            r.center = (round(x), round(y))
            out.append(r)
    return out


def map_key(play) -> tuple:
    """What the map and the marks on screen depend on, for the HUD's key (while a move
    plays, the corner map's movers are layers placed each frame: not in it)."""
    reading = play.reading
    pose = play.pose()
    marks = reading.step_marks()
    if not reading.show_map and not marks and not reading.large:
        return ()
    if play.timeline is not None and not reading.large:
        still, moving = movers_apart(play, pose)
        return (reading.show_map, False, play.app.progress.palette, "moving", tuple(still),
                len(moving), marks)
    return (reading.show_map, reading.large + reading.near, play.app.progress.palette,
            tuple(round(float(v), 2) for v in pose.player),
            tuple(tuple(round(float(v), 2) for v in c) for c in pose.crates), marks,
            reading.hovered())


def draw_marks(ov, play, b, camera, s: float, avoid=()) -> list[pygame.Rect]:
    """The step marks on their cells in the picture: a badge each, its glyph and its word
    (never colour alone); badges that would overlap are stacked, none over ``avoid``."""
    placed = place_marks(ov, play, b, camera, s, avoid)
    paint_marks(ov, placed)
    return [rect for rect, *_ in placed]


#: The step marks whose cell in the slice a badge may find hidden: a ramp's is the wall it
#: takes you ana over, or the cell it takes you kata of (a ramp's landing a slice ana read
#: "behind a wall"); a hook's is where it flies to.
HIDDEN_ASKED = ("walk", "climb", "push", "slip kata")


class Badge(NamedTuple):
    """A step mark's badge as :func:`place_marks` places it, for :func:`paint_marks`."""

    #: its box, in window pixels
    rect: pygame.Rect
    #: its words (the glyph first)
    text: str
    colour: tuple[int, int, int]
    #: a "stays": its words dimmer
    dim: bool
    #: the text size
    size: int
    #: the corners of its cell's floor where that cell is hidden from the eye, else ()
    floor: tuple
    #: its cell's point on screen where the badge was moved off it (a line joins them),
    #: else None
    at: tuple[int, int] | None = None
    #: the window outlines of the crates that hide its cell (``floor``): no dash of that
    #: floor is drawn over them
    under: tuple = ()


#: What a wall to the room's top is said to reach, with z up ("stays · a wall to the
#: ceiling", "wall to the ceiling"): the height you would stand at on it lies over the room.
CEILING_WORDS = " to the ceiling"
#: A "stays" badge's words where a wall is what stops you: past the tutorial, its glyph
#: alone (:data:`GLYPH_ALONE`).
PLAIN_STAYS = ("stays · too high", f"stays · {stepmarks.TOP_WORDS}")
#: The badges that are a glyph alone, past the tutorial: a plain walk's dot, and a "stays"
#: where a wall stops you (a marker's words may lie over them, as over a cell's floor).
GLYPH_ALONE = (stepmarks.GLYPH["walk"], slicemap.STAYS_GLYPH)


def place_marks(ov, play, b, camera, s: float, avoid=(), ends_off=((), ())) -> list[Badge]:
    """Where :func:`draw_marks` draws each badge (:class:`Badge`), placed but not drawn
    (what is drawn under the badges goes first).  ``ends_off``: (the markers' shapes' boxes,
    the faces their round windows are cut in), which the line of a badge moved off its cell
    ends outside of (:func:`line_end`)."""
    marks = play.reading.step_marks()
    if not marks:
        return []
    avoid = [*avoid, *hook.head_rects(ov, play, s)]  # the tag of a crate on your head
    drawn = play.pose().player
    size = max(11, int(15 * s))
    palette = play.app.progress.palette
    placed: list[Badge] = []
    project = markers.projecting(drawn, b, camera, ov.size)
    # the crates' tops in sight: a badge keeps off them (lined back to its cell), as off the
    # pawn ("push" and "climb" laid on the crate they name hid it, and blind players of two
    # rounds lost the crate they were about to push)
    seen = crates_in_sight(play, b, camera, ov.size)
    avoid = [*avoid, *(r for r in (crate_top(c.cell, b, project) for c in seen) if r)]
    px, py, depth = project(play.game.state.player)
    if depth > 0:  # the pawn itself is never covered: its box as the map keeps clear of it
        # (a cell's size on screen), and never less than two badges high (a blind player
        # found four badges on a pawn deep in a hard room's corridor, and no pawn)
        pawn = pygame.Rect(0, 0, 2 * size, 2 * size)
        pawn.center = (round(px), round(py))
        avoid = [*avoid, pawn.union(keep_clear(play, b, camera, ov.size)[0])]
    # A plain walk's badge says "walk" in the tutorial, where the marks are learnt; past it,
    # its dot alone: four badges round the pawn, two or three of them "walk", stacked onto
    # each other and the markers there, and blind players read labels on the wrong cells.
    tutorial = in_tutorial(play)
    crates_seen = None  # (the crates' outlines in the slice, worked out where first asked)
    # (a mark no key takes in this view, its axis hidden, has no badge: the map has it)
    for mark in play.reading.badged(marks, b, camera.yaw):
        x, y, depth = project(badge_at(mark, drawn))
        if depth <= 0 or not (math.isfinite(x) and math.isfinite(y)):
            continue
        # a step's cell hidden from the eye (behind a crate, mostly): its floor outlined
        # over what hides it, and the badge says what hides it (blind players read the
        # crate in front as on that cell, and a walk badge on its top as "onto the crate")
        floor, behind, under = (), "", ()
        if mark.kind in HIDDEN_ASKED and not off_room(play.room, mark.cell) \
                and markers.in_slice(play.room, mark.cell, drawn, b):
            # (only there can something of the slice hide it: a ramp's landing a slice ana
            # read "behind a wall")
            # (a push's or a climb's cell is the crate's or the block's: it shows where its
            # top does)
            behind = markers.hidden_by(play.room, play.game.state, mark.cell, drawn, b, camera,
                                       "crate" if mark.kind in ("push", "climb") else "step")
            if behind:
                floor = markers.floor_of(mark.cell, b, project)
            if behind == "crate" and mark.kind not in ("push", "climb"):
                # its floor dashed behind the crate in front, not over it: dashed over it, the
                # crate lay framed in the row behind, and blind players of four rounds read it
                # as standing a row further on, in the cell the step goes to
                if crates_seen is None:
                    crates_seen = [crate_outline(c.cell, b, project) for c in seen]
                under = tuple(c for c in crates_seen if c)
        words = mark.label
        if mark.kind in ("ramp ana", "ramp kata"):
            # the slice it takes you to: its badge lies on its cell of your slice, mostly a
            # wall, and blind players read that wall as the ramp ("ramp kata" on a wall read
            # as a wall, and the way back down was not found)
            words = words.replace(mark.kind, f"{mark.kind} to w {landing_w(play.room, mark)}", 1)
            if over_gap(play, mark):
                # (its cell of your slice a gap, drawn dark: in level 7's w-up view blind
                # players of three rounds read "ramp ana to w 2" on it as a pit to fall in)
                words += " · over the gap"
            elif in_a_block(play, mark, b):
                # (with w hidden its cell of your slice is the wall the step goes round, drawn
                # with a round window in it: chevrons up the wall read to blind players of
                # every round as a step to climb, and "ramp ana to w 2" on it as the wall
                # being a ramp (t271); the words say where you land, and that the wall is
                # not there)
                words = (f"{mark.kind.split()[1]}: you land here in w "
                         f"{landing_w(play.room, mark)} · no wall there")
        if mark.won:
            words += " · goal"
        top = top_words(play.room, mark, b)
        if top and words in PLAIN_STAYS:
            # (with w up the block is drawn one high over your floor, its top the floor ana:
            # "a wall" on what shows as a floor read backwards to two more blind players, a
            # floor called a wall (t253, t254); what stops you there is that no step climbs
            # in w)
            words = "stays · no step up in w"
        words += top
        if behind == "crate":  # (behind a wall, its dashed floor alone: in a big room the
            # words were on nearly every badge, and read as noise)
            words += markers.behind_words(behind)
        glyph = stepmarks.GLYPH[mark.kind]
        if mark.kind == "push":  # (its arrow the way the crate goes on screen: "▶ push" for
            # every push read as the same push)
            glyph = slicemap.ARROW_GLYPH.get(views.move_to_arrow(b, camera.yaw, mark.move),
                                             glyph)
        text = f"{glyph} {words}"
        if words == "walk" and not tutorial:
            text = stepmarks.GLYPH["walk"]  # a plain walk: its dot alone (the legend's)
        elif words in PLAIN_STAYS and not tutorial:
            # a wall in the way: the map's "no move" alone (three "stays · too high" round
            # a pawn in a hard room's pocket, with the markers there, and a blind player
            # could not tell which words were whose cell's)
            text = slicemap.STAYS_GLYPH
        elif words in PLAIN_STAYS and names_its_wall(play, mark, b):
            # in the tutorial, with z up, the wall's height too, as the tops say theirs: its
            # top's words have no room by the pawn, and the round window cut into it there,
            # level 2's wall beside the pawn read to blind players of two rounds as a floor
            # (with w up its w, and no tag of its own: level 2's wall, with "stays · a wall"
            # and two tags "wall · w 3" on its cells, was three labels on one wall)
            up = height_axis(play.room, b)
            top = wall_top(play.room, mark.cell, up)
            if up == 2 and top >= play.room.size[2]:
                # (to the room's top: "z 2", the height you would stand at on it, lies over
                # the room; said of level 3's walls, it read to a blind player as "a wall",
                # and a made room's floors at z 2 as walls, until a climb badge said not:
                # t353)
                text += CEILING_WORDS if text.endswith(stepmarks.TOP_WORDS) \
                    else f" · {stepmarks.TOP_WORDS}{CEILING_WORDS}"
            else:
                text += f" · {'zw'[up - 2]} {top}"
        goal_up = goal_over(play, mark, b) if words in PLAIN_STAYS else 0
        if goal_up:
            # the goal on the wall that stops you: how far up it is, said (its "⊘" alone,
            # a blind player beside hard.takin8's goal at z 3, two over him, could not tell
            # why he could not step onto it, and spent six moves finding out)
            text = f"{slicemap.STAYS_GLYPH} too high: the goal is {goal_up} up in z"
        w = ov.width_of(text, size) + 10
        rect = pygame.Rect(0, 0, w, size + 4)
        rect.center = (round(x), round(y))
        rect = markers.clear_of(rect, [*(p.rect for p in placed), *avoid], 0, ov.size[1],
                                ov.size[0])
        # (moved off its cell: a line back to it, as a marker's moved words have; two
        # "walk · onto a ramp" moved off their cells beside the pawn, a blind player could
        # not tell which was which)
        off = None if rect.collidepoint(round(x), round(y)) else \
            line_end((x, y), (px, py) if depth > 0 else None, rect, *ends_off)
        placed.append(Badge(rect, text, mark.tint(palette),
                            mark.kind == "nothing", size, floor, off, under))
    return placed


#: A moved badge's line ends out of a marker's round window this far out (as
#: :func:`markers.window_in`'s ``k``: the window is ``markers.WINDOW_K``).
LINE_CLEAR_K = 0.95


def line_end(at, pawn, badge: pygame.Rect, boxes, faces) -> tuple[int, int]:
    """Where the line of a badge moved off its cell ends: on the cell (``at``, on screen),
    or, where that lies in a marker's shape (``boxes``) or its round window in a block
    (``faces``, each a face's four corners), the nearest point out of them toward the
    pawn (``pawn``, on screen; no further than half way, the edge the two cells share)
    or toward the badge (``badge``; no further than its edge): on the cell's face in
    front of the window, as often as not.  Ending in the goal's window, level 7's
    "stays · a wall" read as the goal's words (t349).

    >>> box = pygame.Rect(5, 5, 11, 20)
    >>> line_end((10, 10), (30, 10), pygame.Rect(0, 40, 20, 10), [box], [])
    (16, 10)
    >>> line_end((10, 10), (12, 10), pygame.Rect(0, 40, 20, 10), [box], [])
    (10, 25)
    """
    def clear(p) -> bool:
        # (clear of the window by a rim: ended on its rim, the line still read as the
        # window's)
        return not any(box.collidepoint(p) for box in boxes) and not any(
            markers.in_window(face, p, LINE_CLEAR_K) for face in faces)

    here = (round(at[0]), round(at[1]))
    if clear(here):
        return here
    ways = [(badge.center, 1.0)] + ([(pawn, 0.5)] if pawn is not None else [])
    best = None
    for (tx, ty), most in ways:
        for k in range(1, 41):
            t = most * k / 40
            p = (round(at[0] + t * (tx - at[0])), round(at[1] + t * (ty - at[1])))
            if badge.collidepoint(p):
                break
            if clear(p):
                far = math.hypot(p[0] - at[0], p[1] - at[1])
                if best is None or far < best[0]:
                    best = (far, p)
                break
    return here if best is None else best[1]


def goal_over(play, mark, b) -> int:
    """With z up, how far over the pawn's height the goal lies where it is on the column a
    step (``mark``) goes toward, in the pawn's slice; else 0.

    >>> from anabasis.app.play.stepmarks import Mark
    >>> from anabasis.engine.world import State
    >>> from anabasis.formats import levels
    >>> room = levels.load_level(2)
    >>> gx, gy, gz, gw = room.goal
    >>> Play = type("Play", (), {"room": room, "game": type("G", (), {
    ...     "state": State((gx - 1, gy, gz - 2, gw), ())})})
    >>> stand = views.view_basis("stand")
    >>> goal_over(Play, Mark("R", "nothing", cell=(gx, gy, gz - 2, gw)), stand)
    2
    >>> goal_over(Play, Mark("R", "nothing", cell=(gx, gy, gz - 2, gw)),
    ...           views.view_basis("w-up"))
    0
    """
    if views.axis_of(b[:, 2])[0] != 2:
        return 0
    room, player = play.room, play.game.state.player
    gx, gy, gz, gw = room.goal
    x, y, _, w = room.norm(tuple(mark.cell))
    if (gx, gy) != (x, y) or not w == gw == room.norm(player)[3]:
        return 0
    return max(0, gz - player[2])


def badge_at(mark, drawn) -> tuple:
    """Where a step's badge lies in 4D: on the cell its step goes toward; a ramp's, on the
    cell it lands in, a slice ana or kata of that, as the picture draws its landing (from the
    pawn's drawn w ``drawn[3]``: round a wrapped w, the slice its way says).  On the cell of
    the pawn's slice, in the w-up view five blind players of five found "ramp ana to w 1"
    on a red "fall out" ✕, true of that cell, not of the step.  In the stand view w is
    hidden, and the two are one place on screen.

    >>> from anabasis.app.play.stepmarks import Mark
    >>> badge_at(Mark("R", "ramp ana", cell=(1, 0, 1, 3)), (0, 0, 1, 3.0))
    (1, 0, 1, 4.0)
    >>> badge_at(Mark("R", "walk", cell=(1, 0, 1, 3)), (0, 0, 1, 3.0))
    (1, 0, 1, 3)
    """
    way = _ramp_way(mark)
    if not way:
        return mark.cell
    x, y, z, _ = mark.cell
    return (x, y, z, float(drawn[3]) + way)


def _ramp_way(mark) -> int:
    """A ramp's step (``mark``): +1 ana, -1 kata; 0 for any other."""
    return {"ramp ana": 1, "ramp kata": -1}.get(mark.kind, 0)


def in_tutorial(play) -> bool:
    """Whether the room played is one of the first chapter's levels, where the marks are
    learnt (their badges say more there)."""
    return play.opened.kind == "level" and play.opened.chapter == 1


def view_up(b: np.ndarray) -> int | None:
    """The 4D axis straight up the screen at rest, z (2) or w (3); None mid-turn or in
    a view whose up is neither.

    >>> view_up(views.view_basis("w-up")), view_up(views.view_basis("both"))
    (3, 2)
    """
    up, sign = views.axis_of(b[:, 2])
    return up if sign > 0 and up in (2, 3) and abs(float(b[up, 2])) > 0.999 else None


def height_axis(room, b: np.ndarray) -> int | None:
    """The axis heights are said along (the tops' tags, a wall's badge): the view's up, z
    or w (:func:`view_up`), but none along a w that wraps (no top is highest there)."""
    up = view_up(b)
    return None if up == 3 and room.wrap else up


def names_its_wall(play, mark, b: np.ndarray) -> bool:
    """Whether ``mark``'s badge says the height of the wall that stops it (``stays · a wall ·
    z 2``; with w up, ``w 3``): in the tutorial, along :func:`height_axis`."""
    return (in_tutorial(play) and height_axis(play.room, b) is not None
            and mark.label + top_words(play.room, mark, b) in PLAIN_STAYS)


def top_words(room, mark, b: np.ndarray) -> str:
    """With w up, what a block in your way is drawn as, where its top is a floor one slice
    ana: `` · its top: w 2's floor`` (else ``""``).  Drawn one high over your floor, the
    wall in level 3's slice read to three blind players of a round as a step to climb, or,
    told "a wall", as not knowing whether it was a wall or a floor: it is both.

    >>> from anabasis.formats import levels
    >>> from anabasis.engine import rules
    >>> room = levels.load_level(3)
    >>> down = stepmarks.classify(room, rules.start(room).state, "D")
    >>> top_words(room, down, views.view_basis("w-up")), top_words(room, down,
    ...                                                            views.view_basis("stand"))
    (" · its top: w 2's floor", '')
    """
    if mark.kind != "nothing" or abs(float(b[3, 2])) < 0.99 or not room.inside(mark.cell):
        return ""
    x, y, z, w = mark.cell
    ana = room.norm((x, y, z, w + 1))
    if room.cell(mark.cell) not in (BLOCK, *RAMPS) or not room.inside(ana) \
            or room.cell(ana) in (BLOCK, *RAMPS):
        return ""
    return f" · its top: w {ana[3]}'s floor"


def over_gap(play, mark) -> bool:
    """Whether a ramp's step (``mark``) goes over a gap of your slice: the column it goes
    toward holds nothing there (the picture draws it dark, the map bare).

    >>> from anabasis.app.play.stepmarks import Mark
    >>> from anabasis.formats import levels
    >>> class Play:  # (what it asks of the scene: the room and its map)
    ...     room = levels.load_level(7)
    ...     class reading:
    ...         shown_map = staticmethod(lambda: SliceMap(Play.room, (600, 300)))
    >>> over_gap(Play, Mark("R", "ramp ana", cell=(1, 0, 1, 0)))
    True
    >>> over_gap(Play, Mark("D", "ramp ana", cell=(3, 1, 1, 0)))
    False
    """
    room = play.room
    x, y, _, w = cell = room.norm(mark.cell)
    if not room.inside(cell):
        return False
    smap = play.reading.shown_map()
    return smap.top(x, y, w) is None and smap.ramp_crosses(x, y, w)


def in_a_block(play, mark, b: np.ndarray) -> bool:
    """Whether a ramp's step (``mark``) lands, with w hidden at rest, where your slice has
    a block: the picture draws its landing as a round window in that block.

    >>> from anabasis.app.play.stepmarks import Mark
    >>> from anabasis.formats import levels
    >>> class Play:  # (what it asks of the scene: the room, and where the pawn stands)
    ...     room = levels.load_level(3)
    ...     class game:
    ...         class state:
    ...             player = (2, 0, 1, 1)
    >>> stand = views.view_basis("stand")
    >>> in_a_block(Play, Mark("D", "ramp ana", cell=(2, 1, 1, 2)), stand)
    True
    >>> in_a_block(Play, Mark("D", "ramp ana", cell=(2, 1, 1, 2)), views.view_basis("w-up"))
    False
    """
    if views.axis_of(b[:, 3])[0] != 3 or abs(float(b[3, 3])) < 0.999:
        return False
    room = play.room
    x, y, z, _ = mark.cell
    cell = room.norm((x, y, z, play.game.state.player[3]))
    return room.inside(cell) and room.cell(cell) != EMPTY


def wall_top(room, cell, axis: int = 2) -> int:
    """The height along ``axis`` (z, or w) you would stand at on the block in ``cell`` and
    those right over it: one over the last of them (a whole column round a wrapped w: its
    own cell's top).

    >>> from anabasis.formats import levels
    >>> wall_top(levels.load_level(2), (1, 0, 1, 2)), wall_top(levels.load_level(2),
    ...                                                        (1, 0, 1, 1), 3)
    (2, 3)
    """
    cell = list(cell)
    top = cell[axis]
    for _ in range(room.size[axis] - 1):
        cell[axis] += 1
        if not room.inside(tuple(cell)) or room.cell(room.norm(tuple(cell))) != BLOCK:
            break
        top += 1
    return top + 1


def landing_w(room, mark) -> int:
    """The slice a ramp's step (``mark``, a "ramp ana" or "ramp kata") takes you to: one
    ana or kata of the cell it goes toward, round a wrapped w.

    >>> from anabasis.app.play.stepmarks import Mark
    >>> from anabasis.formats import levels
    >>> landing_w(levels.load_level(7), Mark("R", "ramp ana", cell=(1, 0, 1, 3)))
    0
    """
    x, y, z, w = mark.cell
    return room.norm((x, y, z, w + _ramp_way(mark)))[3]


def paint_marks(ov, placed: list[Badge]) -> None:
    """Draw the badges :func:`place_marks` placed, the dashed floor of each step's cell
    that something hides from the eye, and a line from each badge moved off its cell back to
    it (drawn first, every badge over every line)."""
    for badge in placed:
        if badge.at is not None:  # (the line a marker's moved words have: markers.leader)
            end, start = markers.leader(badge.rect, pygame.Rect(badge.at, (1, 1)))
            pygame.draw.line(ov.surface, badge.colour, start, end, 2)
            pygame.draw.circle(ov.surface, badge.colour, end, 3)
    for rect, text, colour, dim, size, floor, _, under in placed:
        markers.dashed_outline(ov.surface, colour, floor, 2, 5, hide=under)
        # (a "stays" badge is dimmer in its words, not its ground: over the goal's glow a
        # blind player found a faint ground washed out)
        ov.panel(rect, (12, 14, 20, 200 if dim else 215), 6)
        pygame.draw.rect(ov.surface, colour, rect, 1, border_radius=6)
        ov.text(text, rect.center, size, colour, anchor="center", shadow=False)


def pawn_floor(play, b, camera, size) -> tuple:
    """The window corners of the pawn's floor where a crate of the slice hides it from the
    eye (the pawn at rest), else ().  A blind player, the pawn's feet hidden
    behind a crate in front, read the pawn as standing on the crate."""
    if play.timeline is not None or play.won:
        return ()
    drawn = play.pose().player
    if any(float(v) != int(v) for v in drawn):
        return ()
    state = play.game.state
    # (a crate alone: a block in front has the round window cut in it, which shows the
    # feet; dashed over it too, the pawn's floor lay over the wall's top, and blind
    # players of level 2 read the pawn as standing on or in the wall beside it)
    if markers.hidden_by(play.room, state, state.player, drawn, b, camera, "floor") != "crate":
        return ()
    return markers.floor_of(state.player, b, markers.projecting(drawn, b, camera, size))


def pawn_floor_box(play, b, camera, size) -> pygame.Rect | None:
    """The window box round the pawn's floor (its cell's face down the slice's up axis), or
    None where a corner of it is behind the eye."""
    drawn = play.pose().player
    corners = markers.floor_of(drawn, b, markers.projecting(drawn, b, camera, size))
    return points_box(corners) if corners else None


def crate_floors(play, b, camera, size) -> list[tuple]:
    """The window corners of the floor each crate in the slice stands on (at rest, the
    crate in sight), for :func:`paint_crate_floors`.  A crate's top, a cell up, lies over the
    row behind it on screen: every blind player of a round read a crate as a row further up
    the screen than it stood, and the pawn behind one as standing on it."""
    return [seen.floor for seen in crates_in_sight(play, b, camera, size)]


def crate_boxes(play, b, camera, size, seen=None) -> list[pygame.Rect]:
    """The window boxes of the crates in sight in the slice (at rest): each crate's floor and
    top, projected.  Markers' words keep off them: a blind player read a crate's words
    ("crate ↓ 2 kata") moved onto another crate, one in the slice, as that crate's.
    ``seen``: :func:`crates_in_sight`'s answer, where the caller has it already."""
    up = np.round(b[:, 2])
    project = markers.projecting(play.pose().player, b, camera, size)
    out = []
    if seen is None:
        seen = crates_in_sight(play, b, camera, size)
    for crate in seen:
        above = tuple(int(c + u) for c, u in zip(crate.cell, up, strict=True))
        out.append(points_box([*crate.floor, *markers.floor_of(above, b, project)]))
    return out


def crates_in_sight(play, b, camera, size) -> list[tuple]:
    """A :class:`SeenCrate` for each crate in the slice in sight, at rest (the first
    :data:`MOST_CRATE_FLOORS`)."""
    if play.timeline is not None or play.won:
        return []
    drawn = play.pose().player
    if any(float(v) != int(v) for v in drawn):
        return []
    room, state = play.room, play.game.state
    axis, _ = views.axis_of(b[:, 3])
    if abs(b[axis, 3]) < 0.999:
        return []
    here = int(drawn[axis]) % room.size[axis]
    project = markers.projecting(drawn, b, camera, size)
    up, sign = views.axis_of(b[:, 2])
    out = []
    for cell in state.crates[:MOST_CRATE_FLOORS]:
        if cell[axis] % room.size[axis] != here:
            continue
        if room.wrap and axis != 3:  # w in the slice: the copy drawn, kata of the pawn
            cell = (*cell[:3], drawn_w(cell[3], int(drawn[3]), room.size[3]))
        if not under_ceiling(np.asarray(cell, float) - np.asarray(drawn, float), b):
            continue  # over the ceiling's cut, not drawn (with w up, a slice ana: its floor
            # dashed alone, in the air past the room's walls, read as a thing out of the room)
        if markers.hidden_by(room, state, cell, drawn, b, camera, "crate"):
            continue  # (out of sight: its marker says where)
        corners = markers.floor_of(cell, b, project)
        if not corners:
            continue
        out.append(SeenCrate(cell, corners, (cell[up] - int(drawn[up])) * sign < 0))
    return out


#: How far round the pawn, in cells along each of the slice's two flat axes, a block's top
#: in sight says its height (:func:`top_heights`), in a room larger than a small plan.
TOP_REACH = 2
#: The most columns a slice's plan (its two flat axes) has where every top in sight says
#: its height, however far from the pawn: the tutorial's rooms.  (Two cells round the pawn,
#: level 5's trench three cells off had no height with w up, and blind players of every
#: round read the goal's column past it as standing higher than their floor.)
SMALL_PLAN = 25


def top_reach(room, a: int, d: int) -> int:
    """How far round the pawn a top says its height, along the slice's flat axes ``a`` and
    ``d``: every top of a small plan (:data:`SMALL_PLAN`), else :data:`TOP_REACH`."""
    if room.size[a] * room.size[d] <= SMALL_PLAN:
        return max(room.size[a], room.size[d])
    return TOP_REACH


class TopHeight(NamedTuple):
    """A block's top in sight, and the height it says (:func:`top_heights`)."""
    #: the block whose top it is
    cell: tuple
    #: the height you would stand at on it along the view's up axis (the HUD's "height z",
    #: or with w up its "w")
    z: int
    #: the middle of its top, in window pixels
    at: tuple[int, int]
    #: where it is a pit you would slip kata from: the slice you would come to rest in
    #: (its words say that, not the height), else None
    slip: int | None = None
    #: four more points on its top, toward its corners: where the tag goes when its middle
    #: is taken
    others: tuple = ()
    #: it is a wall to the room's top (its words name it: "wall to the ceiling"; with w up,
    #: "wall · w 3")
    wall: bool = False
    #: the axis up the screen, whose height it says: "z" (the stand view) or "w" (w up)
    axis: str = "z"
    #: with w up, a floor as high as yours or higher, not the room's top: a wall only in
    #: that no step climbs along w ("w 2 · up only by a ramp"; the badge of a step onto one
    #: says "no step up in w")
    rise: bool = False
    #: the goal's floor: how far over your height the goal is (0: as high as you; below
    #: you, less than 0), else None (:func:`goal_top`)
    goal: int | None = None


def top_heights(play, b, camera, size) -> list[TopHeight]:
    """A :class:`TopHeight` for each block's top in sight within :data:`TOP_REACH` of
    the pawn in its slice, with z up the screen (the stand view) or w (where w does not
    wrap), at rest; none on the pawn's own column (the pawn is on it), on a ramp (its wedge
    says it) nor on a pit you would fall out from (its cross says it).  The map writes
    these numbers; in 3D, with the eye looking down, a wall one up whose side faces away
    read to five blind players of eight as level with their walkway, and four asked for
    the map's numbers on the tops.  With w up the height is a w ("w 2": the slice you would
    stand in on it), and only where you would stand held in z too (z is hidden: a fall
    along it does not show); blind players read that view's walls as steps, and its
    walkways as walls (t229, t234, t235, t237).  Won, with the win's panel set aside (a
    turn or an orbit), the tops say their heights still: players look round a room they
    have won, and level 1 turned to w up after its win, with no heights, read to three
    blind players of three as a wall and pillars (t313, t314, t315)."""
    if play.timeline is not None or (play.won and not play.win_aside):
        return []
    drawn = play.pose().player
    room, state = play.room, play.game.state
    up = height_axis(room, b)
    if any(float(v) != int(v) for v in drawn) or up is None:
        return []
    goal = None if play.won else goal_top(play, b, camera, size)
    (a, _), (d, _) = views.axis_of(b[:, 0]), views.axis_of(b[:, 1])
    project = markers.projecting(drawn, b, camera, size)
    smap = play.reading.shown_map()
    crates = {room.norm(c) for c in state.crates}
    # (none on a cell a ramp's step carries you over: drawn as your slice has it, mostly a
    # wall, its badge says where the step lands; level 3's walls where a ramp takes you kata
    # said "z 2", and a blind player read them as walls)
    ramped = {(m.cell[a], m.cell[d]) for m in play.reading.step_marks()
              if m.kind in ("ramp ana", "ramp kata")}
    # (none where a step's badge says the fall in z it ends in, "walk · 1 down in z": the
    # same height said twice, by cells side by side round the pawn, and blind players of
    # every round said a hard room's labels pile up there, t263's among them)
    if up == 2:
        ramped |= {(m.cell[a], m.cell[d]) for m in play.reading.step_marks() if m.drop}
    # (no wall named on or beside a cell whose badge names it: level 2's one wall, with
    # "wall · z 2" and "stays · a wall · z 2", read to a blind player as two walls; with w
    # up, a badge that says the wall's top, "its top: w 2's floor")
    named = {(m.cell[a], m.cell[d]) for m in play.reading.step_marks()
             if names_its_wall(play, m, b) or top_words(room, m, b)}
    out = [] if goal is None else [goal]  # (the goal's first: the other tags keep off it)
    reach = top_reach(room, a, d)
    for da in range(-reach, reach + 1):
        for dd in range(-reach, reach + 1):
            if da == dd == 0:
                continue
            column = list(state.player)
            column[a] += da
            column[d] += dd
            if not (0 <= column[a] < room.size[a] and 0 <= column[d] < room.size[d]) \
                    or (column[a], column[d]) in ramped \
                    or (goal is not None and (column[a], column[d]) == (goal.cell[a],
                                                                         goal.cell[d])):
                continue
            for z in range(room.size[up] - 1, -1, -1):  # the highest top in sight
                cell = list(column)
                cell[up] = z
                cell = tuple(cell)
                if room.cell(room.norm(cell)) != BLOCK:
                    continue
                if not markers.top_shows(room, state, cell, drawn, b, camera, crates,
                                         corners=2):
                    continue
                # its top's middle, then four points round it (a badge may lie on the
                # middle: level 2's wall beside the pawn, "stays · a wall" on it and no
                # height, read to a blind player as a plain floor)
                spots = top_spots(project, cell, up, a, d)
                if spots is None:
                    break
                # (with w up, a block as high as you or higher is a wall too: no step
                # climbs in w, only a ramp; its top said as a height read as a step up)
                wall = z + 1 >= room.size[up] or (up == 3 and z >= state.player[3])
                slip = None
                if up == 3:
                    # (with w up: held in z where you would stand on it, or no height: a
                    # fall along the hidden z does not show, and its words would lie)
                    under = (*column[:2], column[2] - 1, z + 1)
                    if not wall and (column[2] == 0 or (
                            room.cell(under) != BLOCK and room.cell(under) not in RAMPS
                            and under not in crates)):
                        break
                elif not wall and not smap.held_at(*column[:2], z + 1, column[3], crates):
                    # a pit you would slip kata from: where you would come to rest, not a
                    # height (the map writes none; blind players read level 2's pit as a
                    # drop in z, and the picture tells a slip of one slice from one of
                    # two by nothing); none under a shelf, nor where you fall out (the
                    # cross says so)
                    end = (smap.rests(*column[:2], column[3], crates)
                           if smap.top(*column[:2], column[3]) == (z, BLOCK) else None)
                    if end is None:
                        break
                    slip = end[3]
                if wall and (z - state.player[up] >= 1 or max(abs(da), abs(dd)) > 1
                             or any((column[a] + ea, column[d] + ed) in named
                                    for ea, ed in ((0, 0), (1, 0), (-1, 0), (0, 1),
                                                   (0, -1)))):
                    break  # (a wall to the room's top two or more over you: hatched and
                    # tall, it reads as a wall, and a hard room's corridor had a dozen of
                    # one number round the pawn; one over you, it looks a step: said by
                    # the pawn alone, level 7's seven walls round it each said it)
                # (a pit's words on its middle alone: wider than a height's, moved toward a
                # corner they lay by the next cell, and a blind player read "slip to w 3"
                # as the plain floor's beside it)
                out.append(TopHeight(cell, z + 1, spots[0], slip,
                                     () if slip is not None else tuple(spots[1:]), wall,
                                     "zw"[up - 2], wall and up == 3 and z + 1 < room.size[up]))
                break
    return out


def top_spots(project, cell, up: int, a: int, d: int, rises=()) -> list | None:
    """Window points on the top of ``cell`` (its face up the axis ``up``), where its tag
    may go: its middle, then four points a quarter of a cell toward its corners (along the
    slice's flat axes ``a`` and ``d``), then ``rises`` cells over its middle; None where
    one lies behind the eye.  ``project``: :func:`markers.projecting`'s."""
    out = []
    for da, dd, rise in ((0, 0, 0.0), (-1, -1, 0.0), (1, -1, 0.0), (-1, 1, 0.0), (1, 1, 0.0),
                         *((0, 0, r) for r in rises)):
        point = [float(v) for v in cell]
        point[up] += 0.5 + rise
        point[a] += 0.25 * da
        point[d] += 0.25 * dd
        x, y, depth = project(tuple(point))
        if depth <= 0 or not (math.isfinite(x) and math.isfinite(y)):
            return None
        out.append((round(x), round(y)))
    return out


def goal_top(play, b, camera, size) -> TopHeight | None:
    """The goal in the pawn's slice, in plain sight on the top of what holds it up, not a
    step from the pawn, at rest: a :class:`TopHeight` for that top, saying how far over
    the pawn's height the goal is along the view's up (:func:`height_axis`); else None.

    With w up, level 5's and level 6's goal stands on a column as high as the pawn's floor
    across a trench; the column's side shows over the trench and its top lies higher up
    the screen, and blind players of every round (t280, t284, t291, t292, t296, ...) read
    it as standing higher.  In a big room, a goal three up did not look three up (t281,
    t283).  Its tag says it: "goal · w 2 · as high as you", "goal · z 3 · 2 up"."""
    room, state = play.room, play.game.state
    drawn = play.pose().player
    up = height_axis(room, b)
    hidden, _ = views.axis_of(b[:, 3])
    if up is None or abs(float(b[hidden, 3])) < 0.999 \
            or not markers.in_slice(room, room.goal, drawn, b) \
            or markers.touches(room.goal, state.player):
        return None  # (a step from you: its badge says "· goal")
    put = [int(v) for v in room.goal]
    put[hidden] = int(drawn[hidden])  # (round a wrapped w, the slice it is drawn in)
    if room.wrap and hidden != 3:
        put[3] = pose.goal_copy(room, drawn[3])[3]
    lift = np.asarray(put, float) - np.asarray(drawn, float)
    floor = list(put)
    floor[up] -= 1
    if put[up] == 0 or not under_ceiling(lift, b) \
            or markers.hidden_by(room, state, put, drawn, b, camera, "goal") \
            or markers.hidden_by(room, state, put, drawn, b, camera, "part") \
            or not markers.top_shows(room, state, tuple(floor), drawn, b, camera):
        return None  # (its marker says where it is, and what hides it)
    project = markers.projecting(drawn, b, camera, size)
    (a, _), (d, _) = views.axis_of(b[:, 0]), views.axis_of(b[:, 1])
    # its floor's middle; then four points toward its corners, and up its glow (where all
    # are taken, paint_top_heights tries beside it: with its middle alone, the crate and
    # the pawn by it left hard.impala9's goal, two up on a wall, with no words, and a blind
    # player saw neither that it was the goal nor that it was a climb, t331)
    spots = top_spots(project, floor, up, a, d, rises=(0.5, 1.0))
    if spots is None:
        return None
    return TopHeight(tuple(floor), room.goal[up], spots[0], others=tuple(spots[1:]),
                     axis="zw"[up - 2], goal=room.goal[up] - state.player[up])


def goal_words(top: TopHeight) -> str:
    """The goal's tag (:func:`goal_top`): its height, and how far over yours it is.

    >>> goal_words(TopHeight((4, 2, 0, 1), 2, (0, 0), axis="w", goal=0))
    'goal · w 2 · as high as you'
    >>> goal_words(TopHeight((4, 2, 2, 1), 3, (0, 0), goal=2))
    'goal · z 3 · 2 up'
    >>> goal_words(TopHeight((4, 2, 0, 1), 1, (0, 0), goal=-1))
    'goal · z 1 · 1 down'
    """
    rel = top.goal
    how = "as high as you" if rel == 0 else f"{abs(rel)} {'up' if rel > 0 else 'down'}"
    return f"goal · {top.axis} {top.z} · {how}"


def points_box(points) -> pygame.Rect:
    """The window box round ``points`` (window pixels)."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def paint_top_heights(ov, heights, s: float, taken,
                      palette: str = "standard") -> list[pygame.Rect]:
    """Write each top's height (:func:`top_heights`) on it, as the HUD says yours ("z 2"),
    or on a pit the slice you would slip to ("slip to w 1"), where its tag is clear of
    ``taken`` (the badges, the markers, the pawn, ...) and of the tags before it; a wall to
    the room's top named too ("wall to the ceiling"); the boxes written."""
    size = max(11, int(15 * s))
    done: list[pygame.Rect] = []
    slips: list[tuple] = []  # (the cell, its slice to slip to) of each pit's words written
    for top in heights:
        cell, z, at, slip, others, wall, axis, rise, goal = top
        if slip is not None and any(
                to == slip and max(abs(cell[0] - near[0]), abs(cell[1] - near[1])) <= 1
                for near, to in slips):
            slips.append((cell, slip))  # (said by the group's words: the next beside it too)
            continue  # one pit's words for the pits beside it that slip as far (three
            # "slip to w 2" down a column of pits read as a pile of labels, whose cell's
            # each was no one could tell)
        text = f"{axis} {z}" if slip is None else f"slip to w {slip}"
        if wall:
            # a wall to the room's top, one over you: named (its "z 2" alone read to a blind
            # player as a floor to climb onto; "wall · z 2", as "z 2" meaning a wall, and a
            # made room's floors at z 2 as walls, t353: with z up, no height)
            text = f"wall{CEILING_WORDS}" if axis == "z" else f"wall · {axis} {z}"
        if rise:
            # (with w up, the floor of a slice ana: "wall · w 2" on level 3's middle row,
            # where its ramps carry you, read to blind players as the ramps leading into a
            # wall (t259), or a wall in your slice (t262, t263); its step's badge says "no
            # step up in w · its top: w 2's floor"); "no step up" there read to two more as
            # the ramp beside it not taking them up (t334, t335): no step does, a ramp does
            text = f"{axis} {z} · up only by a ramp"
        colour = views.AXIS_COLOURS[axis if slip is None else "w"]
        if goal is not None:
            text, colour = goal_words(top), markers.colour_of("goal", palette)
        rect = pygame.Rect(0, 0, ov.width_of(text, size) + 8, size + 2)
        beside = () if goal is None else tuple(
            (at[0] + side * (rect.width // 2 + k * size), at[1])
            for k in (1, 2, 3, 4) for side in (-1, 1))
        # (the goal's, where its top is crowded, beside it: hard.impala9's goal, two up on a
        # wall by a crate and the pawn, had no words, t331)
        for spot in (at, *others, *beside):
            rect.center = spot
            # (apart from the labels as they keep apart: three tags and words on one
            # cell of level 5 read as a pile, t341)
            if not markers.crowds(rect, [*taken, *done]):
                break
        else:
            continue
        if slip is not None:
            slips.append((cell, slip))
        # (the goal's on its glow: dark enough that its gold words read there)
        ov.panel(rect, (12, 14, 20, 150 if goal is None else 225), 5)
        ov.text(text, rect.center, size, colour, anchor="center", shadow=False)
        done.append(rect)
    return done


class SeenCrate(NamedTuple):
    """A crate in sight (:func:`crates_in_sight`): where it is drawn."""
    cell: tuple
    #: the window corners of the floor it stands on (:func:`markers.floor_of`'s order)
    floor: tuple
    #: it stands lower than the pawn, its top no higher than the pawn's floor (down a pit or
    #: a trench, as a floor of its own): its floor, lower, is not dashed
    sunk: bool = False


def crate_top(cell, b: np.ndarray, project) -> pygame.Rect | None:
    """The window box round the top of the crate in ``cell`` (its inset face up the slice's
    up axis), or None where a corner of it is behind the eye."""
    points = _crate_corners(cell, b, project, (1,))
    return points_box(points) if points else None


def crate_outline(cell, b: np.ndarray, project) -> tuple:
    """The window outline of the crate in ``cell``: the convex hull of its inset box's eight
    corners, projected; () where a corner is behind the eye."""
    points = _crate_corners(cell, b, project, (-1, 1))
    return tuple(markers.convex_hull(points)) if points else ()


def _crate_corners(cell, b: np.ndarray, project, ends) -> list:
    """The window points of the corners of the crate in ``cell`` (its inset box), at its
    bottom (-1) and top (1) as ``ends`` asks; [] where one is behind the eye."""
    across, depth, up = np.round(b[:, 0]), np.round(b[:, 1]), np.round(b[:, 2])
    half = 0.5 - CRATE_INSET
    points = []
    for a in (-1, 1):
        for d in (-1, 1):
            for h in ends:
                x, y, z = project(np.asarray(cell, float) + half * a * across
                                  + half * d * depth + 0.5 * h * up)
                if z <= 0 or not (math.isfinite(x) and math.isfinite(y)):
                    return []
                points.append((round(x), round(y)))
    return points


#: The most crates whose floors are drawn (a crowded room's first ones).
MOST_CRATE_FLOORS = 24


def paint_crate_floors(ov, floors: list[SeenCrate], s: float, palette: str,
                       pawn: pygame.Rect | None = None) -> None:
    """Each crate's floor (:func:`crates_in_sight`'s), dashed in the crates' colour, over
    the crate: the cell it stands in, on the floor's grid; never over the pawn's box.  (A
    crate whose floor a wall hides was drawn whole too, faintly, over the wall: two blind
    players of two rounds read that ghost as a marker, and one as a crate on the goal.)"""
    colour = markers.colour_of("crate", palette)
    width, dash = max(2, int(2 * s)), int(5 * s)
    for crate in floors:
        # (not a crate sunk in a trench, its top a floor beside yours: its floor lower down
        # showed half a cell from it, and two blind players read the crate as across two
        # cells, t315, t316)
        if not crate.sunk:
            markers.dashed_outline(ov.surface, colour, crate.floor, width, dash, pawn)


def paint_pawn_floor(ov, corners: tuple, s: float) -> None:
    """The pawn's floor (:func:`pawn_floor`'s corners), dashed in the pawn's colour."""
    markers.dashed_outline(ov.surface, markers.PAWN_COLOUR, corners, max(2, int(2 * s)),
                           int(6 * s))


def off_room(room, cell) -> bool:
    """Whether ``cell`` lies past the room's edge (w, where it wraps, has none)."""
    return not room.inside(room.norm(cell))


#: A HUD panel's ground over the room: faint, so the room shows through it.
FADED_ALPHA = 60


def room_corners(play, b, camera, size) -> list[tuple[float, float]] | None:
    """The window points of the room's box's corners (projected), or None where one is
    behind the eye: :func:`room_rect` and :func:`room_hull` of one projection."""
    room = play.room
    player = play.pose().player
    project = markers.projecting(np.asarray(player, float) + 0.5, b, camera, size)
    points = [project(c) for c in views.room_box(room.size, player, room.wrap)]
    if any(depth <= 0 for _, _, depth in points):
        return None
    return [(x, y) for x, y, _ in points]


def corners_box(corners) -> pygame.Rect | None:
    """The window rectangle round ``corners`` (:func:`room_corners`'), or None for none."""
    if corners is None:
        return None
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    return pygame.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 1,
                       int(max(ys) - min(ys)) + 1)


def room_hull(play, b, camera, size) -> list[tuple[float, float]] | None:
    """The window polygon the room's box covers (the hull of its corners projected), or
    None where a corner is behind the eye: :func:`room_rect` less the empty corners of
    that rectangle."""
    corners = room_corners(play, b, camera, size)
    return None if corners is None else markers.convex_hull(corners)


def room_rect(play, b, camera, size) -> pygame.Rect | None:
    """The window rectangle the room's box covers (its corners projected), or None."""
    return corners_box(room_corners(play, b, camera, size))


def drawn_rect(play, b, camera, size) -> pygame.Rect | None:
    """The window rectangle that the slice's drawn blocks, ramps and crates cover (their
    cells' corners projected; not those over the ceiling's cut), or None where nothing is
    drawn or a corner is behind the eye.  Tighter than :func:`room_rect`, which is the
    whole room's box, high empty space and all.  Only at rest (``b``'s hidden axis a 4D
    axis); None mid-turn."""
    axis, _ = views.axis_of(b[:, 3])
    if abs(b[axis, 3]) < 0.999:
        return None
    room, state = play.room, play.game.state
    player = np.asarray(play.pose().player, float)
    codes = np.frombuffer(room.cells, np.uint8).reshape(room.size[::-1])  # (w, z, y, x)
    solid = (codes == BLOCK) | np.isin(codes, np.fromiter(RAMPS, np.uint8))
    for c in state.crates:
        solid[c[3], c[2], c[1], c[0]] = True
    w, z, y, x = np.nonzero(solid)
    cells = np.stack([x, y, z, w], axis=1).astype(float)
    here = math.floor(player[axis] + 0.5)
    if room.wrap and axis == 3:
        cells = cells[(cells[:, 3] - here) % room.size[3] == 0]
    else:
        cells = cells[cells[:, axis] == here]
        if room.wrap:  # w in the slice: the copy drawn, one turn kata of the pawn at most
            cells[:, 3] = drawn_w(cells[:, 3], math.floor(player[3] + 0.5), room.size[3])
    cells[:, axis] = player[axis]
    cells = cells[under_ceiling(cells - player, b)]
    if not len(cells):
        return None
    corners = np.array([(i, j, k) for i in (-0.5, 0.5) for j in (-0.5, 0.5)
                        for k in (-0.5, 0.5)]) @ np.round(b[:, :3]).T  # (8, 4)
    points = (cells[:, None, :] + corners[None, :, :] - player).reshape(-1, 4) @ b[:, :3]
    xs, ys, depth = project_many(camera, size, points)
    if (depth <= 0).any():
        return None
    return pygame.Rect(int(xs.min()), int(ys.min()), int(xs.max() - xs.min()) + 1,
                       int(ys.max() - ys.min()) + 1)


def band_over(band, panel: pygame.Rect, room: pygame.Rect | None):
    """A panel's ground colour: ``band``, or faded where the room lies under the panel."""
    if room is not None and room.colliderect(panel):
        return (*band[:3], min(band[3], FADED_ALPHA))
    return band
