"""Cues in the real window: each thing a move does, shown, said and heard.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import pygame
from conftest import DT
from window import arrow_for, press, settle

from anabasis.app.play import cues, markers
from anabasis.app.play.session import Opened, open_level
from anabasis.formats import levelfile

# -- cues: each thing a move does, shown, said and heard -------------------------------

#: A room to drop a crate out of: pushed right, it falls off the floor and out the bottom.
CRATE_OUT = "#### ####\n\n##.# @$.*\n"


def cued(app, move=None, key=None):
    """The cues one key fires (an arrow meaning ``move``, or ``key``), played to rest."""
    play = app.scene
    play.fired.clear()
    played = len(app.sound.played)
    press(app, arrow_for(play, move) if move else key)
    settle(app)
    fired = list(play.fired)
    # every cue is heard too (or would be: the sounds asked for are the cues' own)
    assert list(app.sound.played)[played:] == [cues.SOUND.get(k, k) for k in fired]
    return fired


def test_each_cue_comes_from_its_move_and_no_other(make_app, monkeypatch, capfd):
    # with no audio device at all: the game plays in silence and says nothing of it
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "none")
    app = make_app(open_level(1))
    assert not app.sound.available
    play = app.scene
    # a step that is not a move: a half-step toward the wall and back, and why, once
    start = play.game.state
    press(app, arrow_for(play, "L"))
    reach = []
    while play.busy:
        reach.append(play.pose().player[0] - start.player[0])
        app.tick(DT)
    assert min(reach) < -0.2 and play.pose().player == tuple(map(float, start.player))
    assert (play.game.state, play.game.moves) == (start, 0)
    assert list(play.fired) == ["bump"] and play.message == "the room ends here"
    play.message_left = 0
    assert cued(app, "U") == ["bump"] and play.message_left <= 0  # said once a session
    assert cued(app, "R") == ["step", "fall"]  # off the block kata of you: out, undone
    assert play.game.state == start
    # the rest of level 1's cues, level 2's slip and level 3's ramps are recorded play:
    # tests/play/level-1-cues.txt, level-2-slip.txt, level-3-ramps.txt
    # a push, and a crate landing in the gap: marked with a ring where it lands
    app.open(open_level(5))
    play = app.scene
    assert cued(app, "D") == ["step"]
    assert cued(app, "R") == ["push"]
    press(app, arrow_for(play, "R"))
    while play.busy:
        app.tick(DT)
    assert list(play.fired)[-2:] == ["push", "land"] and play.rings
    cell = play.rings[0][0]
    assert cell in play.state.crates
    x, y, _ = markers.project(cell, play.pose().player, play.sight.basis(), play.sight.camera,
                              app.overlay.size)
    app.tick(DT)
    ring = [app.overlay.surface.get_at((int(x + dx), int(y + dy)))[:3]
            for dx in range(-40, 41, 2) for dy in range(-40, 41, 2)]
    assert markers.CRATE_COLOUR in ring
    # not over the large map: there its place in the room lay on another slice's panel, and
    # a blind player read it as something there (drawn, the ring adds crate-coloured pixels
    # that are gone once it has spread)
    app.open(open_level(5))
    play = app.scene
    for move in "DR":
        press(app, arrow_for(play, move))
        settle(app)
    press(app, pygame.K_b)
    settle(app)
    assert play.reading.large
    press(app, arrow_for(play, "R"))
    while play.busy:
        app.tick(DT)
    assert play.rings

    def crate_pixels() -> int:
        grid = pygame.surfarray.pixels3d(app.overlay.surface)
        alpha = pygame.surfarray.pixels_alpha(app.overlay.surface)
        n = int(((grid == markers.CRATE_COLOUR).all(axis=2) & (alpha > 0)).sum())
        del grid, alpha
        return n

    app.tick(DT)
    during = crate_pixels()
    for _ in range(int(markers.RING_S / DT) + 5):
        app.tick(DT)
    assert crate_pixels() == during
    # a crate pushed off the floor falls out of the room
    app.open(Opened(levelfile.parse(CRATE_OUT), "room", "a drop"))
    play = app.scene
    assert cued(app, "R") == ["push", "crate-out"] and not play.state.crates
    assert play.message == "the crate fell out of the room"
    app.close()
    assert capfd.readouterr().err == ""


def test_a_moves_words_go_when_the_next_move_is_played(make_app):
    """"you slipped kata to w 1" is what that move did: a player moving on at once must not
    read it under the next move (it stayed its whole 1.6 s, over moves that did not slip)."""
    from anabasis.engine import rules

    app = make_app(open_level(2))
    play = app.scene
    for move in "DDR":
        press(app, arrow_for(play, move))
        settle(app)
    press(app, arrow_for(play, "R"))
    settle(app)
    assert play.message == "you slipped kata to w 1" and play.message_left > 0
    state = play.game.state
    move = next(m for m in "LRUD" if rules.step(play.room, state, m).moved
                and rules.step(play.room, state, m).state.player[3] == state.player[3])
    press(app, arrow_for(play, move))  # at once, well within the message's time
    assert play.game.moves == 5
    assert play.message != "you slipped kata to w 1" or play.message_left <= 0
    # a message that is not a move's own (here the view's tip) is left to its time
    play.say("a tip", "info", 3.0)
    press(app, arrow_for(play, "U"))
    assert play.message == "a tip" and play.message_left > 0


def test_a_views_tip_goes_when_the_view_turns_again(make_app):
    """A view's tip names that view ("w up: ..."): turning on before its time is up, the
    player must not read it over the next view (a blind player did, in the stand view)."""
    from anabasis.app.play.scene import VIEW_TIPS

    app = make_app(open_level(3))
    play = app.scene
    app.view_tips = 1  # the first turn's tip, said by the game; none after it
    press(app, pygame.K_v)
    settle(app)
    assert play.message == VIEW_TIPS[play.sight.view] and play.message_left > 0
    press(app, pygame.K_v)  # on at once
    assert play.message_left <= 0
    settle(app)
    play.say("moves 3, par 5", "info", 4.0)  # words of another kind keep their time
    press(app, pygame.K_v)
    assert play.message == "moves 3, par 5" and play.message_left > 0
