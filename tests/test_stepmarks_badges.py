"""The step badges in the window follow the settings' palette: switched to the colour-blind-
safe one, every badge is drawn in that palette's colour for its kind, and what tells the
badges apart (the glyph and the word) is the same in both palettes."""

from __future__ import annotations

import math

import pygame
from conftest import DT
from window import arrow_for, press, settle

from anabasis.app.play import reading, stepmarks
from anabasis.app.play.session import open_level
from anabasis.app.viewer import slicemap
from anabasis.engine import solver


def test_no_two_step_kinds_share_a_glyph_or_a_badge_a_text():
    glyphs = [stepmarks.GLYPH[k] for k in stepmarks.KINDS]
    assert len(set(glyphs)) == len(glyphs)
    texts = [stepmarks.Mark("hA" if k.startswith("hook") else "R", k, 0).label
             for k in (*stepmarks.KINDS, *stepmarks.HOOK_KINDS)]
    assert len(set(texts)) == len(texts)
    for kind in (*stepmarks.KINDS, *stepmarks.HOOK_KINDS):  # each kind has both colours
        assert stepmarks.colour_of(kind) == stepmarks.COLOUR[kind]
        assert stepmarks.colour_of(kind, "safe") == stepmarks.SAFE_COLOUR[kind]
    # the safe palette's colours are its own: not the standard ones
    for kind in stepmarks.KINDS:
        assert stepmarks.SAFE_COLOUR[kind] != stepmarks.COLOUR[kind], kind


def badges(app, play, palette):
    """The badges drawn on a clear overlay in ``palette``: (rect, text, its pixels) each."""
    app.progress.palette = palette
    ov = app.overlay
    ov.surface.fill((0, 0, 0, 0))
    ov.written = []
    b, cam = play.sight.basis(), play.sight.camera
    rects = reading.draw_marks(ov, play, b, cam, ov.scale)
    texts = list(ov.written)
    assert len(texts) == len(rects)
    return [(r, t, pygame.image.tobytes(ov.surface.subsurface(r), "RGBA"))
            for r, t in zip(rects, texts, strict=True)]


def test_switching_the_palette_recolours_every_badge_and_keeps_its_glyph_and_word(make_app):
    app = make_app(open_level(7))
    app.view_tips = 0
    play = app.scene
    assert play.reading.showing_marks  # the first chapter: the marks are on
    kinds = set()
    moves = solver.solve(play.room).moves
    for move in (None, *moves[:6]):
        if move is not None:
            press(app, arrow_for(play, move))
            settle(app)
        app.tick(DT)
        shown = play.reading.badged(play.reading.step_marks(), play.sight.basis(),
                                    play.sight.camera.yaw)
        standard = badges(app, play, "standard")
        safe = badges(app, play, "safe")
        assert len(standard) == len(safe) == len(shown) > 0
        for (r0, t0, px0), (r1, t1, px1) in zip(standard, safe, strict=True):
            assert r0 == r1 and t0 == t1  # the same place, the same glyph and word
            assert px0 != px1  # ... and other colours
            glyph = t0.split(" ", 1)[0]
            (kind,) = {m.kind for m in shown if stepmarks.GLYPH[m.kind] == glyph}  # its glyph
            kinds.add(kind)
            # the badge's edge is drawn in its kind's colour of each palette
            for palette, rect in (("standard", r0), ("safe", r1)):
                badges(app, play, palette)
                edge = app.overlay.surface.get_at((rect.centerx, rect.top))[:3]
                assert edge == stepmarks.colour_of(kind, palette), (kind, palette)
    assert len(kinds) >= 3, kinds
    app.progress.palette = "standard"


def test_the_map_draws_its_step_marks_in_its_palette():
    from anabasis.engine import rules
    from anabasis.formats import levels

    room = levels.load_level(7)
    state = rules.start(room).state
    marks = tuple(m for m in stepmarks.marks(room, state) if m.kind != "nothing")
    assert marks
    seen = {}
    for palette in ("standard", "safe"):
        smap = slicemap.SliceMap(room, (900, 500), palette)
        pic = smap.picture(state.player, state.crates, marks)
        assert smap.layout.cell >= 9  # (the marks are drawn at this size)
        cells = {}
        for m in marks:
            x, y, _, w = m.cell
            k = smap.layout.cell // 3  # (a tag lies over its cell's corner, a third out)
            rect = smap.layout.cell_rect(x, y, w).inflate(2 * k, 2 * k)
            colours = {pic.get_at((i, j))[:3] for i in range(rect.left, rect.right)
                       for j in range(rect.top, rect.bottom)}
            assert stepmarks.colour_of(m.kind, palette) in colours, (m.kind, palette)
            cells[m.cell] = pygame.image.tobytes(pic.subsurface(rect), "RGBA")
        seen[palette] = cells
    for cell in seen["standard"]:
        assert seen["standard"][cell] != seen["safe"][cell]


def test_the_legends_badge_is_drawn_in_the_settings_palette(make_app):
    """The help's legend shows a badge as the room draws it: in the safe palette its edge
    and glyph are the safe palette's colour, not the standard one's."""
    from anabasis.app.play import legend

    app = make_app(open_level(7), size=(1280, 720))  # (every line of the legend on it)
    ov = app.overlay
    got = {}
    for palette in ("standard", "safe"):
        ov.surface.fill((0, 0, 0, 0))
        drawn = legend.draw(ov, 10, 4, 19, 13, 600, legend.lines(app.keymap), palette)
        pic = next(r for name, r, _ in drawn if name == "badge")
        got[palette] = {tuple(ov.surface.get_at((x, y)))[:3]
                        for x in range(pic.left, pic.right) for y in range(pic.top, pic.bottom)}
    for palette, other in (("standard", "safe"), ("safe", "standard")):
        assert stepmarks.colour_of("climb", palette) in got[palette]
        assert stepmarks.colour_of("climb", other) not in got[palette]


def test_a_push_badges_arrow_points_the_way_the_crate_goes_on_screen(make_app):
    """A blind player found "▶ push" the same whatever way the push went.  3.5's first push
    sends the crate down the screen (toward the eye): its badge's arrow is ▼; the arrow is
    the one of the key that pushes, in every view that badges it."""
    from window import settle

    from anabasis.app.play.session import open_level
    from anabasis.picture import views

    app = make_app(open_level(5, chapter=3), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    for _ in range(3):
        app.tick(1 / 30)
    b, cam = play.sight.basis(), play.sight.camera
    push = [m for m in play.reading.badged(play.reading.step_marks(), b, cam.yaw)
            if m.kind == "push"]
    assert push
    for m in push:
        arrow = views.move_to_arrow(b, cam.yaw, m.move)
        glyph = slicemap.ARROW_GLYPH[arrow]
        assert any(t.startswith(f"{glyph} push") for t in app.overlay.written), glyph
    assert any(t.startswith("▼ push") for t in app.overlay.written)


def test_the_pictures_fall_out_cross_is_the_fall_out_badges_colour():
    """A pit you fall out from is crossed in the picture in the "fall out" badge's colour,
    in each palette: the picture's palette (a layer below the badges) says it again, and
    this holds the two together."""
    from anabasis.picture import pose

    for palette in ("standard", "safe"):
        cross = tuple(round(255 * c) for c in pose.PALETTES[palette]["out"])
        assert cross == stepmarks.colour_of("fall out", palette), palette


def test_a_ramps_badge_lies_on_its_landing_not_on_its_cell_of_your_slice(make_app):
    """In level 7's w-up view every blind player of round N found "ramp ana to w 1" on a red
    "fall out" ✕: the cell of the pawn's slice the step goes toward, which it does not land
    in.  A ramp's badge lies on the cell it lands in, a slice ana (up, in that view), where
    the picture draws its landing; in the stand view (w hidden) the two are one place."""
    from anabasis.app.play import markers

    app = make_app(open_level(7), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    for view in ("stand", "w-up"):
        while play.sight.view != view:
            press(app, pygame.K_v)
            settle(app)
        play.message_left = 0.0
        app.tick(DT)
        b, cam = play.sight.basis(), play.sight.camera
        drawn = play.pose().player
        project = markers.projecting(drawn, b, cam, app.overlay.size)
        badges = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
        ramp = [m for m in play.reading.badged(play.reading.step_marks(), b, cam.yaw)
                if m.kind == "ramp ana"]
        assert ramp, view
        landing = project(reading.badge_at(ramp[0], drawn))[:2]
        cell = project(ramp[0].cell)[:2]
        badge = next(p for p in badges if "ramp ana" in p.text)
        aim = badge.at or badge.rect.center
        assert abs(aim[0] - landing[0]) <= 2 + badge.rect.width / 2
        assert abs(aim[1] - landing[1]) <= 2 + badge.rect.height / 2
        apart = math.hypot(landing[0] - cell[0], landing[1] - cell[1])
        assert (apart > 20) == (view == "w-up"), (view, apart)
