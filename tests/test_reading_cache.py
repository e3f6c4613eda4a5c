"""The slice map is drawn once and kept: what the HUD shows of it is always what a map drawn
afresh would show, through a move (while it plays and at rest), an undo, a palette
change and a window resize; and the step marks it carries are the engine's for the
state on screen."""

from __future__ import annotations

import pygame
from conftest import DT
from window import arrow_for, press, resize_window, safe_palette_in_play, settle

from anabasis.app.play import reading, stepmarks
from anabasis.app.play.session import open_level
from anabasis.app.viewer.slicemap import SliceMap
from anabasis.engine import solver


def fresh_map(app, play) -> pygame.Surface:
    """The map where the HUD put it, drawn from nothing kept: a new SliceMap of the room at
    the box and palette in use, with the movers as drawn and the engine's own marks of the
    state on screen, faded where the room lies under it, on a clear ground."""
    r = play.reading
    pose = play.pose()
    marks = r.step_marks()
    if marks:
        want = stepmarks.marks(play.room, play.game.state)
        assert marks == want  # (a hook room would add its hooks'; this is none)
    fresh = SliceMap(play.room, r.map_box, app.progress.palette)
    if play.timeline is None:
        picture = fresh.picture(pose.player, pose.crates, marks)
    else:  # a move playing: the map at rest under its movers, each a small layer
        still, moving = reading.movers_apart(play, pose)
        picture = fresh.still(still).copy()
        for sprite, at in fresh.sprites(pose.player, moving):
            picture.blit(sprite, at)
    out = pygame.Surface(picture.get_size(), pygame.SRCALPHA, 32)
    out.fill((0, 0, 0, 0))
    room = reading.room_rect(play, play.sight.basis(), play.sight.camera, app.overlay.size)
    if room is not None and r.map_rect.colliderect(room):
        picture = picture.copy()
        part = r.map_rect.clip(room).move(-r.map_rect.left, -r.map_rect.top)
        picture.fill((255, 255, 255, round(255 * reading.MAP_FADE)), part,
                     special_flags=pygame.BLEND_RGBA_MULT)
    out.blit(picture, (0, 0))
    return out


def shown_map(app, play) -> pygame.Surface:
    """The HUD's pixels where the map was drawn (what is blended over the room)."""
    return app.overlay.flat().subsurface(play.reading.map_rect)


def same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return (a.get_size() == b.get_size()
            and pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA"))


def check(app, play) -> bool:
    """The map on the overlay is a fresh map's, if this frame's HUD was drawn (True); a HUD
    left to the next frame (the frame traced the room) is not looked at (False)."""
    if app.overlay.held:
        return False
    assert play.reading.map_rect is not None
    assert same(shown_map(app, play), fresh_map(app, play))
    return True


def at_rest(app, play) -> None:
    settle(app)
    play.message_left = 0.0  # (a message's panel would lie over the map)
    for _ in range(3):
        app.tick(DT)
    assert check(app, play)


def playing(app, play, key) -> int:
    """Press ``key`` and check the map each frame while the move plays: the frames checked."""
    press(app, key, frames=0)
    checked = 0
    for _ in range(400):
        play.message_left = 0.0
        app.tick(DT)
        if not play.busy:
            break
        checked += check(app, play)
    return checked


def test_the_kept_map_is_a_fresh_maps_through_moves_undo_palette_and_resize(make_app):
    app = make_app(open_level(5))  # three slices (the map on), a crate pushed twice
    app.view_tips = 0
    play = app.scene
    assert play.reading.show_map and play.reading.showing_marks
    at_rest(app, play)
    # the marks turned off (the settings' "held") and on again: the map drops them, and
    # takes them back, with nothing else changed
    with_marks = pygame.image.tobytes(shown_map(app, play), "RGBA")
    for setting in ("held", "on"):
        app.progress.step_marks = setting
        play.reading.settings_changed()
        at_rest(app, play)
        now = pygame.image.tobytes(shown_map(app, play), "RGBA")
        assert (now == with_marks) == (setting == "on")
    moves = solver.solve(play.room).moves
    # moves: the pawn (and a crate) animate across the map, the marks come back at rest
    checked = 0
    for move in moves[:3]:
        before = pygame.image.tobytes(shown_map(app, play), "RGBA")
        crates = play.game.state.crates
        checked += playing(app, play, arrow_for(play, move))
        at_rest(app, play)
        assert pygame.image.tobytes(shown_map(app, play), "RGBA") != before
    assert play.game.state.crates != crates  # (the last of them pushed the crate)
    # undo: back the way it came, drawn as it goes
    for _ in range(2):
        checked += playing(app, play, pygame.K_z)
        at_rest(app, play)
    assert checked >= 3, checked  # frames in the middle of a move were looked at
    # the palette, changed on the settings screen in play: the map is made again in it
    standard = pygame.image.tobytes(shown_map(app, play), "RGBA")
    safe_palette_in_play(app, play)
    at_rest(app, play)
    assert pygame.image.tobytes(shown_map(app, play), "RGBA") != standard
    # the window resized: the map is fitted to the new box, and still a fresh one, at rest
    # and while the next move plays (the state is the first move's again)
    box = play.reading.map_box
    resize_window(app, (1000, 600))
    assert app.overlay.size == (1000, 600)
    at_rest(app, play)
    assert play.reading.map_box != box
    checked = playing(app, play, arrow_for(play, moves[1]))
    at_rest(app, play)
    assert checked >= 1


def test_while_a_move_plays_the_maps_movers_are_layers_placed_not_drawn_again(make_app):
    """While a move plays, the map under the movers is sent once and each mover (the pawn,
    its slice's frame, a crate on its way) is a small layer of its own: from frame to frame
    the pawn's layer moves and is the same picture (nothing drawn or sent again), and the
    map under it stays the same picture."""
    app = make_app(open_level(5))
    app.view_tips = 0
    play = app.scene
    at_rest(app, play)
    move = solver.solve(play.room).moves[0]
    press(app, arrow_for(play, move), frames=0)
    seen = []
    for _ in range(400):
        app.tick(DT)
        if not play.busy:
            break
        if play.reading.sprites_at is not None:
            first, count = play.reading.sprites_at
            shown = app.overlay.shown
            seen.append((shown[first - 1][0], shown[first + count - 1][0],
                         tuple(shown[first + count - 1][1])))
            # all of them in one texture, each in its own rectangle of it: one draw blends
            # them (a draw of each cost a fifth of a millisecond on llvmpipe)
            layers = app.overlay.layers
            assert len(layers) == len(shown) >= 3
            assert len({id(texture) for texture, _, _ in layers}) == 1
            sources = [pygame.Rect(source) for _, _, source in layers]
            assert not any(a.colliderect(b) for i, a in enumerate(sources)
                           for b in sources[i + 1:])
    assert len(seen) >= 3
    stills = {id(s) for s, _, _ in seen}
    pawns = {id(p) for _, p, _ in seen}
    places = {at for _, _, at in seen}
    assert len(stills) == 1 and len(pawns) == 1  # the same pictures all along
    assert len(places) >= 3  # the pawn's layer moved across the map, frame by frame
