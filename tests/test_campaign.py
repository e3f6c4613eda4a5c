"""The launcher's chapters, in a real window: what opens a chapter, its levels played from
the launcher, hinted wins marked, "every level done" only when true, old save files kept.
"""

from __future__ import annotations

import json

import pygame
from window import press, win

from anabasis.app.menus.launcher import Launcher
from anabasis.app.play.scene import Play
from anabasis.app.play.session import open_level
from anabasis.app.settings import campaign as chapters
from anabasis.app.settings import progress as progress_mod
from anabasis.app.settings.progress import level_key
from anabasis.formats import levels


def save(tmp_path, clean=(), hinted=()):
    """A save file with these levels (chapter, n) won, clean or with hints, at par."""
    saved = progress_mod.Progress.load(tmp_path)
    for c, n in clean:
        saved.record(level_key(n, c), levels.load_from(c, n).par)
    for c, n in hinted:
        saved.record(level_key(n, c), levels.load_from(c, n).par + 2, hints=1)
    saved.save()


def every_level():
    return [(ch.number, n) for ch in levels.chapters() for n in range(1, len(ch) + 1)]


def lines(launcher, kind):
    return [i for i, it in enumerate(launcher.items) if it.action[0] == kind]


def test_chapter_keys_leave_the_tutorials_as_they_were():
    assert level_key(3) == "level:3" and level_key(3, 1) == "level:3"
    assert level_key(4, 2) == "level:2.4"
    assert open_level(4, 2).key == "level:2.4" and open_level(3).key == "level:3"
    assert open_level(4, 2).number == "2.4" and open_level(3).number == "3"


def test_chapter_2_opens_once_its_share_of_chapter_1_is_won(make_app, tmp_path):
    need = levels.chapter(2).needed(levels.count())
    assert need == 5  # 2/3 of the tutorial's 7, as chapter 2's file says
    save(tmp_path, clean=[(1, n) for n in range(1, need)])  # one short
    app = make_app()
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    locked = [launcher.items[i] for i in lines(launcher, "locked")]
    assert [it.action for it in locked] == [("locked", 2), ("locked", 3), ("locked", 4)]
    assert "opens when 5 of chapter 1's 7 levels are won" in locked[0].detail
    # (not the file's share as well: "5 of 7 ... (2/3 of them)" stopped three blind
    # players, 5/7 not being 2/3)
    assert "4 so far" in locked[0].detail and "2/3" not in locked[0].detail
    assert not [it for it in launcher.items if it.action[0] == "level" and len(it.action) > 2]
    assert [it.label for it in locked[:2]] == [f"closed: {len(levels.chapter(2))} levels",
                                              f"closed: {len(levels.chapter(3))} levels"]
    # a closed chapter says why, and opens nothing
    launcher.activate(launcher.index_of(2, None))
    assert isinstance(app.scene, Launcher) and "opens when 5" in launcher.status
    app.close()

    save(tmp_path, clean=[(1, need)], hinted=[])  # the fifth: a hinted win would do too
    app = make_app()
    launcher = app.scene
    ch2 = [launcher.items[i] for i in range(len(launcher.items))
           if launcher.items[i].action[:1] == ("level",) and launcher.items[i].action[2:] == (2,)]
    assert len(ch2) == len(levels.chapter(2))
    assert ch2[0].header.startswith("chapter 2 · crates in four dimensions · 0 of 8")
    assert ch2[0].label.startswith("2.1") and "par 8" in ch2[0].right
    assert [launcher.items[i].action for i in lines(launcher, "locked")] == [("locked", 3),
                                                                           ("locked", 4)]
    # the selection is on chapter 1's first level still to win (a stuck player may go on)
    assert launcher.selected == 5
    launcher.selected = launcher.index_of(2, 1)
    press(app, pygame.K_RETURN)
    play = app.scene
    assert isinstance(play, Play) and (play.opened.chapter, play.opened.level) == (2, 1)


def test_a_level_of_chapter_2_played_from_the_launcher_goes_on_in_chapter_2(make_app, tmp_path):
    save(tmp_path, clean=[(1, n) for n in range(1, 8)])
    app = make_app()
    launcher = app.scene
    assert launcher.selected == launcher.index_of(2, 1)  # chapter 1 done: on to chapter 2
    press(app, pygame.K_RETURN)
    play = win(app)
    assert play.opened.key == "level:2.1"
    saved = progress_mod.Progress.load(tmp_path)
    assert "level:2.1" in saved.solved and saved.best["level:2.1"] == levels.load_from(2, 1).par
    assert "level:1" in saved.solved  # the tutorial's keys as they were
    press(app, pygame.K_RETURN)  # the next level of chapter 2, not of the tutorial
    assert isinstance(app.scene, Play)
    assert (app.scene.opened.chapter, app.scene.opened.level) == (2, 2)
    press(app, pygame.K_ESCAPE)
    launcher = app.scene
    item = launcher.items[launcher.index_of(2, 1)]
    assert item.done and f"best {levels.load_from(2, 1).par}" in item.right
    assert launcher.selected == launcher.index_of(2, 2)


def test_a_hinted_win_stays_marked_and_still_opens_the_next_chapter(make_app, tmp_path):
    save(tmp_path, clean=[(1, n) for n in (1, 2, 3, 4)], hinted=[(1, 5), (2, 3)])
    app = make_app()
    launcher = app.scene
    item = launcher.items[launcher.index_of(1, 5)]
    assert item.hinted and not item.done and "with hints" in item.right
    item = launcher.items[launcher.index_of(2, 3)]  # chapter 2 is open: 5 of 7 won
    assert item.hinted and not item.done
    head = launcher.items[launcher.index_of(2, 1)].header
    assert "0 of 8 solved, 1 with hints" in head
    assert "4 of 7 solved, 1 with hints" in launcher.items[0].header
    # a hinted win is not a solve: winning it cleanly now marks it done
    launcher.activate(launcher.index_of(2, 3))
    win(app)
    press(app, pygame.K_ESCAPE)
    assert app.scene.items[app.scene.index_of(2, 3)].done


def test_every_level_done_only_when_every_level_of_every_chapter_is_won_clean(make_app,
                                                                             tmp_path):
    rest = [cn for cn in every_level() if cn != (1, 7)]
    save(tmp_path, clean=[cn for cn in rest if cn != (3, 2)], hinted=[(3, 2)])
    app = make_app(open_level(7))
    play = win(app)
    assert not play.every_level_done
    app.draw()
    press(app, pygame.K_RETURN)  # the tutorial's last level: back to the launcher, saying so
    assert isinstance(app.scene, Launcher)
    said = app.scene.status
    assert "every level done" not in said
    assert said.startswith("the end of chapter 1: 7 of 7 solved") and "chapter 2" in said
    assert not chapters.every_level_done(app.progress)
    app.close()

    save(tmp_path, clean=[(3, 2)])  # now every level is won without hints
    progress = progress_mod.Progress.load(tmp_path)
    assert chapters.every_level_done(progress)
    app = make_app(open_level(7))
    play = win(app)
    assert play.every_level_done
    app.draw()
    press(app, pygame.K_RETURN)
    assert app.scene.status.startswith("every level done")


def test_an_old_save_file_keeps_its_progress(make_app, tmp_path):
    # a save file as the release before chapters wrote it: the tutorial's keys only
    old = {"version": 1, "solved": [f"level:{n}" for n in range(1, 7)],
           "best": {f"level:{n}": levels.load_level(n).par + 1 for n in range(1, 7)},
           "hinted": ["level:7"], "best_hinted": {"level:7": 40},
           "window": None, "fullscreen": False, "volume": 0.5, "muted": False}
    (tmp_path / progress_mod.FILE_NAME).write_text(json.dumps(old))
    app = make_app()
    launcher = app.scene
    assert not app.progress.warning and app.progress.board == "none"
    for n in range(1, 7):
        item = launcher.items[launcher.index_of(1, n)]
        assert item.done and f"best {levels.load_level(n).par + 1}" in item.right
    assert launcher.items[launcher.index_of(1, 7)].hinted
    assert launcher.index_of(2, 1) is not None  # 7 of 7 won: chapter 2 is open
    assert launcher.index_of(3, None) is not None  # chapter 3 waits on chapter 2
    assert launcher.selected == launcher.index_of(1, 7)  # the hinted one, still to solve
    app.save_progress()
    again = json.loads((tmp_path / progress_mod.FILE_NAME).read_text())
    assert again["solved"] == old["solved"] and again["best"] == old["best"]


def test_a_closed_chapter_with_a_level_won_from_its_code_says_so(make_app, tmp_path):
    """A blind player read chapter 2's "1 of 8 solved" over "closed: 8 levels" as a
    contradiction: a level won from its shared code, the chapter still closed.  The closed
    line says how many are won already."""
    save(tmp_path, clean=[(2, 4)])
    app = make_app()
    launcher = app.scene
    (i,) = [i for i in lines(launcher, "locked") if launcher.items[i].action == ("locked", 2)]
    count = len(levels.chapter(2))
    assert launcher.items[i].label == f"closed: {count} levels, 1 won already"
    assert f"1 of {count} solved" in launcher.items[i].header
    app.close()


def test_a_chapters_last_level_won_alone_is_not_called_the_chapters_end(tmp_path):
    """A blind player who played only 2.8 read "the end of chapter 2: 1 of 8 solved" as the
    chapter finished: its last level won says so, and "the end" waits for every level."""
    last = len(levels.chapter(2))
    save(tmp_path, clean=[(1, n) for n in range(1, 8)] + [(2, last)])
    said = chapters.chapter_end_text(progress_mod.Progress.load(tmp_path), 2)
    assert said.startswith(f"chapter 2's last level won: 1 of {last} solved"), said
    save(tmp_path, clean=[(2, n) for n in range(1, last + 1)])
    said = chapters.chapter_end_text(progress_mod.Progress.load(tmp_path), 2)
    assert said.startswith(f"the end of chapter 2: {last} of {last} solved"), said
