"""Which scene follows which: the game's :class:`App`, the frame loop with its scenes named.

The shell's :class:`~anabasis.app.shell.loop.Loop` runs whatever scene is
on screen and names none.  Here is the map a player walks:

- the first scene: the editor (``anabasis edit``), a room the arguments
  name (``--level``, ``--room``, ``--gen``, ``--daily``; ``--demo`` plays it
  by itself), else the launcher on the first level not yet solved;
- the launcher opens a level, a made room (built off the loop), today's
  room, a code, the editor or the keys screen; Esc in a room, the keys
  screen or the editor comes back to it;
- after a win, Enter goes to the next level, a new room of the same tier,
  or back to the launcher;
- the editor play-tests its draft in a room whose Esc comes back to it.

What a session remembers across scenes lives here too: the bumps whose
reason was said (``told``), the view tips left, the launcher's warm-up.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace

from anabasis.app.menus.keys_screen import KeysScreen
from anabasis.app.menus.launcher import Launcher
from anabasis.app.play.daily_card import DailyBoard
from anabasis.app.play.scene import VIEW_TIPS_PER_SESSION, Play
from anabasis.app.play.session import Opened, open_level, opened_made
from anabasis.app.settings import campaign as chapters
from anabasis.app.settings.campaign import chapter_end_text
from anabasis.app.shell.loop import Loop


class App(Loop):
    """The game: the frame loop, the scene on screen, and which scene follows which."""

    def __init__(self, *, size: tuple[int, int] | None = None, opened: Opened | None = None,
                 demo: bool = False, data_dir: str | os.PathLike | None = None,
                 edit=None):
        super().__init__(size=size, demo=demo, data_dir=data_dir)
        #: the kinds of bump whose reason has been said this session (said once each)
        self.told: set[str] = set()
        self.view_tips = VIEW_TIPS_PER_SESSION  #: turns left that say what the view shows
        #: the kinds of map cell said this session (``reading.map_news``: once each)
        self.map_told: set[str] = set()
        self.warmer = None  #: the launcher's warm-up (made on its first idle frame), kept
        self.building = ""  #: what is being built off-thread, for the UI ("a hard room")
        self._build = None  #: the made room building (one at a time)
        #: the daily board (the save file's ``board`` setting; none: no board, no thread)
        self.daily_board = DailyBoard(self.progress.path.parent, self.progress.board)
        if edit is not None:  # ``anabasis edit``: an EditTarget
            self.edit(edit)
        elif opened is None:
            self.switch(Launcher(self, self._first_unsolved()))
        else:
            self.open(opened)
            if demo:
                self._start_demo(opened)

    def close(self) -> None:
        self.daily_board.stop()
        super().close()

    @property
    def warm_done(self) -> bool:
        """Every variant the launcher's warm-up compiles is compiled (or cannot be)."""
        return self.warmer is not None and self.warmer.done

    def open(self, opened: Opened) -> None:
        """Play ``opened``."""
        self.switch(Play(self, opened), opened.title)

    def edit(self, target=None) -> None:
        """The room editor on ``target`` (an :class:`~anabasis.app.editor.scene.EditTarget`; None:
        a new room)."""
        from anabasis.app.editor.scene import Editor

        editor = Editor(self, target)
        self.switch(editor, editor.title)

    def edit_saved(self, path) -> str:
        """The editor on a saved room's file (it saves back to it); "" once open, else why
        not, in plain words."""
        from anabasis.app.editor.scene import open_saved
        from anabasis.app.settings.rooms import plain

        try:
            target = open_saved(path)
        except Exception as e:  # a file changed or gone since it was listed
            return plain(str(e))
        self.edit(target)
        return ""

    def edit_played(self, opened: Opened) -> None:
        """The room being played (a level, a made room, a shared code) in the editor, as it
        starts: saved as a new room of the player's, never over a shipped level."""
        from anabasis.app.editor.scene import open_played

        open_played(self, opened)

    def make_a_room(self) -> None:
        """"make a room…": a new room or a saved one ("a new room" at once while none is
        saved)."""
        from anabasis.app.menus.rooms import RoomsMenu

        menu = RoomsMenu(self)
        if len(menu.items) == 1:
            self.edit()
        else:
            self.switch(menu)

    def to_launcher_on(self, action: tuple) -> None:
        """The launcher, with the line of ``action`` (``("edit",)``, ``("code",)``) chosen:
        Esc from a room that is not a level comes back where it was opened."""
        self.to_launcher()
        for i, item in enumerate(getattr(self.scene, "items", [])):
            if item.action == action:
                self.scene.selected = i
                return

    def _first_unsolved(self, otherwise: int = 0) -> int:
        """The launcher's selection: the first level not yet won at all; else the first won
        only with hints (still to solve alone), chapter by chapter among the open ones; else
        ``otherwise``.  A player who took hints to get through a level moves on, as after a
        clean win."""
        return self._launcher_line(chapters.first_unsolved(self.progress), otherwise)

    def _launcher_line(self, where, otherwise: int = 0) -> int:
        """The launcher's line of ``(chapter, n)`` (its levels come first, chapter by chapter,
        one line for a closed chapter), else ``otherwise``."""
        if where is None:
            return otherwise
        lines = chapters.layout(chapters.campaign(self.progress))
        for i, line in enumerate(lines):
            if line == tuple(where):
                return i
        return otherwise

    def show_keys(self, return_to: int) -> None:
        """The keys screen; leaving it comes back to the launcher's line ``return_to``."""
        self.switch(KeysScreen(self, return_to))

    def show_settings(self, back_to=None) -> None:
        """The settings screen; leaving it goes back to ``back_to`` (a room being played, as it
        was), else to the launcher."""
        from anabasis.app.menus.settings import SettingsScreen

        self.switch(SettingsScreen(self, back_to))

    def settings_done(self, back_to=None) -> None:
        if back_to is not None:
            self.switch(back_to)
        else:
            self.to_launcher()

    def to_launcher(self, selected: int | None = None) -> None:
        """The launcher, on line ``selected`` (default: the first level not yet solved; with
        every level solved, the level just left, else the first)."""
        if self.demo:
            # the demo is a smoke test: leaving it early is not a win
            print("anabasis: the demo was stopped before the win", file=sys.stderr)
            self.quit(1)
            return
        if selected is None:
            opened = getattr(self.scene, "opened", None)
            left = (self._launcher_line((opened.chapter, opened.level))
                    if opened is not None and opened.kind == "level" else 0)
            selected = self._first_unsolved(left)
        self.save_progress()
        self.switch(Launcher(self, selected))

    def next_after(self, opened: Opened) -> None:
        """Enter after a win: the next level of its chapter, a new room of the same tier, or
        the launcher (after a chapter's last level: saying what is done, and what opened)."""
        from anabasis.formats import levels

        if opened.kind == "level":
            try:
                count = len(levels.chapter(opened.chapter))
            except IndexError:
                count = 0
            if opened.level < count:
                self.open(open_level(opened.level + 1, opened.chapter))
                return
            self.to_launcher()
            self.scene.say(chapter_end_text(self.progress, opened.chapter))
        elif opened.tier and opened.kind == "gen":
            self.build_room(opened.tier)
        else:
            self.to_launcher()

    def build_room(self, tier: str, seed: int | None = None,
                   back_line: tuple | None = None) -> None:
        """Build a made room off the main thread; it opens when ready ("building…" till then).
        ``back_line``: the launcher's line Esc comes back to (default: the tier's)."""
        if seed is None:
            # a fresh room each time; six base-36 digits are plenty to share
            seed = int.from_bytes(os.urandom(4), "little") % 36**6
        self._start_build(tier, seed, "gen", f"a {tier} room", back_line)

    def build_daily(self, date: str | None = None, back_line: tuple | None = None) -> None:
        """Today's room (or that day's), built off the main thread."""
        from anabasis import gen

        self._start_build("hard", gen.daily_seed(date), "daily", "today's room", back_line)

    def _start_build(self, tier: str, seed: int, kind: str, label: str,
                     back_line: tuple | None = None) -> None:
        from anabasis import gen

        if self._build is not None:
            return  # one at a time; the one building opens when ready
        self.building = label
        self._build = gen.build_async(tier, seed)
        self.when_done(self._build, lambda future: self._built(future, kind, back_line))

    def _built(self, future, kind: str, back_line: tuple | None = None) -> None:
        """A made room is built (or failed to be): open it."""
        self._build = None
        label, self.building = self.building, ""
        try:
            made = future.result()
        except Exception as e:
            self._tell(f"could not build {label}: {e}")
        else:
            self.open(replace(opened_made(made, kind), back_line=back_line))

    def _start_demo(self, opened: Opened) -> None:
        from anabasis.engine import solver

        self.when_done(self.work(solver.solve, opened.room), self._solved)

    def _solved(self, future) -> None:
        """The demo's solution is found: play it, or say there is none."""
        solution = future.result()
        if solution.status != "solved":
            print(f"anabasis: the demo found no solution ({solution.status})", file=sys.stderr)
            self.quit(1)
        else:
            self.scene.play_moves(solution.moves)

    def demo_won(self, moves: int, par: int | None) -> None:
        print(f"won: {moves} moves (par {par if par is not None else '?'})", flush=True)
        self.quit(0)

