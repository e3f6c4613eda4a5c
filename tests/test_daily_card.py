"""The card after a daily win, in a real window, against a real board server on loopback.

Two save folders play today's room, one with hints, and each card sees the other in the
day's distribution; a run won while the board is away is queued in the save folder and
goes once it is back; with no board (the default) the card is local and nothing is sent.
"""

from __future__ import annotations

import json
import time

import pygame
import pytest
from conftest import DT, SIZE
from window import press
from window import win as won

from anabasis import gen
from anabasis.app.play import daily_card
from anabasis.app.play.scene import Play
from anabasis.app.play.session import opened_made
from anabasis.app.settings import progress as progress_mod
from anabasis.engine import rules, solver

TODAY = gen.today()


@pytest.fixture(scope="module")
def made():
    return gen.build("hard", gen.daily_seed(TODAY))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``anabasis serve`` on an SQLite file of its own, a real process on 127.0.0.1."""
    from anabasis.board import local

    folder = tmp_path_factory.mktemp("board")
    s = local.Server(str(folder / "board.sqlite3"))
    s.start()
    yield s
    s.stop()


def open_app(display, folder, made, board: str):
    """The game on today's room, in a save folder whose board setting is ``board``."""
    from anabasis.app.routes import App

    saved = progress_mod.Progress.load(folder)
    saved.board = board
    saved.save()
    app = App(size=SIZE, opened=opened_made(made, "daily"), data_dir=folder)
    app.tick(DT)
    return app


def win(app, hints: int = 0, limit=3000):
    """Today's room won through the scene: the hint key pressed ``hints`` times (each
    answered before the next), then a shortest line played."""
    play = app.scene
    assert isinstance(play, Play)
    for _ in range(hints):
        deadline = time.monotonic() + 60
        before = play.hints.used
        press(app, pygame.K_SLASH)
        while play.hints.used == before:
            assert time.monotonic() < deadline, "the hint never came"
            app.tick(DT)
            time.sleep(0.01)
    return won(app, limit)


def card_when(app, ready, seconds=60.0):
    """Step frames (the game's own loop, never waiting on the board) till ``ready(card)``."""
    play = app.scene
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic()
        app.tick(DT)
        assert time.monotonic() - t < 1.0, "a frame waited"
        if ready(play.daily):
            return play.daily
        time.sleep(0.02)
    raise AssertionError(f"the card never got there: {play.daily.status()}")


def counts(card):
    """The card's histogram as {moves: (hint-free, hinted)}."""
    return {m: (a, b) for m, a, b in card.card.histogram.rows}


def test_the_winning_line_leaves_undone_moves_and_restarts_out(made):
    game = rules.Game(made.room)
    sol = solver.solve(made.room).moves
    for m in sol[:3]:
        game.play(m)
    game.restart()
    game.play(sol[0])
    game.undo()
    for m in sol:
        game.play(m)
    assert game.status == "won"
    assert daily_card.winning_line(game) == "".join(sol)


def test_two_save_folders_see_each_other_on_the_board(display, tmp_path, made, server):
    par = made.room.par
    a, b = tmp_path / "a", tmp_path / "b"
    app = open_app(display, a, made, server.url)
    try:
        play = win(app)
        assert play.daily is not None and play.game.moves == par
        card = play.daily
        assert card.card.against_par == "at par" and card.sending  # local first
        assert counts(card) == {par: (1, 0)} and not card.card.histogram.everyone
        card = card_when(app, lambda c: c.outcome is not None)
        assert card.outcome.answer["accepted"] and card.card.histogram.everyone
        assert counts(card)[par][0] >= 1 and card.card.streak >= 1
        app.draw()
        # the share key copies a text that names the day and the count, not the way
        press(app, pygame.K_y)
        share = card.copied
        assert share.startswith(f"Anabasis {TODAY}\n{par} moves, at par, no hints")
        assert made.room.name not in share if made.room.name else True
        assert app.scene.opened.code not in share
        assert "".join(solver.solve(made.room).moves)[:8] not in share
    finally:
        app.close()

    app = open_app(display, b, made, server.url)  # the second player takes a hint
    try:
        play = win(app, hints=1)
        moves = play.game.moves
        card = card_when(app, lambda c: c.outcome is not None and c.card.histogram.everyone)
        seen = counts(card)
        assert seen[par][0] >= 1  # the first player, hint-free at par
        assert seen[moves][1] >= 1  # this one, hinted
        assert card.card.histogram.players >= 2 and card.card.hints == 1
        assert "1 hint" in card.card.share
    finally:
        app.close()

    app = open_app(display, a, made, server.url)  # the first plays again: sees the second
    try:
        win(app)
        card = card_when(app, lambda c: c.outcome is not None and c.card.histogram.everyone)
        assert counts(card)[moves][1] >= 1 and counts(card)[par][0] >= 1
        assert card.card.streak >= 1
    finally:
        app.close()


def test_a_run_won_offline_goes_when_the_board_is_back(display, tmp_path, made):
    from anabasis.board import client, local

    port = local.free_port()  # nothing listens here yet
    folder = tmp_path / "p"
    app = open_app(display, folder, made, f"http://127.0.0.1:{port}")
    s = local.Server(str(tmp_path / "board.sqlite3"), port=port)
    try:
        play = win(app)
        card = play.daily
        card_when(app, lambda c: app.daily_board.last_error() is not None, 30)
        assert card.outcome is None and "queued" in card.status()
        assert len(client.RunQueue(folder)) == 1  # kept in the save folder
        queued = json.loads(next((folder / "board" / "queue").glob("*.json")).read_text())
        assert queued["moves"] == daily_card.winning_line(play.game)
        s.start()  # the board is back: the sender's next try (after its backoff) takes it
        card = card_when(app, lambda c: c.outcome is not None, 90)
        assert card.outcome.answer["accepted"] and card.card.histogram.everyone
        assert len(client.RunQueue(folder)) == 0
    finally:
        app.close()
        s.stop()


def test_a_run_left_queued_goes_at_the_next_start(display, tmp_path, made):
    from anabasis.board import client, local

    port = local.free_port()
    folder = tmp_path / "p"
    app = open_app(display, folder, made, f"http://127.0.0.1:{port}")
    try:
        win(app)
    finally:
        app.close()  # quits with the run still queued
    assert len(client.RunQueue(folder)) == 1
    s = local.Server(str(tmp_path / "board.sqlite3"), port=port).start()
    try:
        app = open_app(display, folder, made, f"http://127.0.0.1:{port}")
        end = time.monotonic() + 60
        while len(client.RunQueue(folder)) and time.monotonic() < end:
            app.tick(DT)
            time.sleep(0.05)
        assert len(client.RunQueue(folder)) == 0
        board = client.BoardClient(s.url).day(TODAY)
        assert board["players"] == 1 and board["moves"] == {str(made.room.par): 1}
        app.close()
    finally:
        s.stop()


def test_with_no_board_the_card_is_local_and_nothing_is_sent(display, tmp_path, made):
    app = open_app(display, tmp_path, made, "none")
    try:
        assert app.daily_board.url is None and app.daily_board.sender is None
        play = win(app)
        card = play.daily
        assert counts(card) == {made.room.par: (1, 0)} and not card.sending
        assert "no board is set" in card.status() and card.card.streak == 1
        assert not (tmp_path / "board" / "queue").exists()
        assert not (tmp_path / "board" / "token").exists()
        app.draw()
    finally:
        app.close()
    assert progress_mod.Progress.load(tmp_path).board == "none"
