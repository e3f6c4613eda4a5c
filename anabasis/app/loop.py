"""The frame loop: one :class:`App`, a scene (the launcher or a room), one frame per tick.

``App.tick(dt)`` is the whole loop body: read the pending pygame events,
let the scene act on them, advance time by ``dt``, draw, flip.  ``run()``
calls it until the game quits; tests call it directly, a frame at a time,
with events they post themselves and a fixed ``dt``, so the real window and
the real GL context are driven exactly as a player would drive them.

Nothing slow runs on this thread: made rooms build in the generator's
worker process and the demo's solution is found in a worker thread (each a
future polled once a frame); the renderer uploads a state only when the
animation reaches a new one; and the ray tracer's variants are compiled in
idle frames, never in the middle of a move.
"""

from __future__ import annotations

import os
import sys
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pygame

from anabasis.app.drawstate import Warmer, warm_poses
from anabasis.app.keys import KeysScreen
from anabasis.app.launcher import Launcher
from anabasis.app.play import VIEW_TIPS_PER_SESSION, Play
from anabasis.app.progress import Progress, data_dir, level_key
from anabasis.app.scene import Scene
from anabasis.app.session import Opened, open_level, opened_made
from anabasis.app.sound import VOLUME_STEP, Sounds
from anabasis.app.text import Overlay
from anabasis.app.window import Window

DEFAULT_SIZE = (1280, 720)
#: Set to 1 to draw one frame, print ``first-frame`` and exit (``anabasis bench``'s startup).
FIRST_FRAME_ENV = "ANABASIS_FIRST_FRAME"
FRAME_LOG = 3600  #: live frames whose timing is kept (a minute at 60 fps)
SOUND_ACTIONS = ("mute", "volume_down", "volume_up")  #: taken by the loop in every scene


class App:
    """The game: a window, saved progress, and the scene on screen."""

    def __init__(self, *, size: tuple[int, int] | None = None, opened: Opened | None = None,
                 demo: bool = False, data_dir: str | os.PathLike | None = None,
                 edit=None):
        self.progress = Progress.load(data_dir)
        if self.progress.warning:
            print(f"anabasis: warning: {self.progress.warning}", file=sys.stderr)
        size = size or self.progress.window or DEFAULT_SIZE
        self.window = Window(size, fullscreen=self.progress.fullscreen and not demo)
        self.ctx = self.window.ctx
        self.overlay = Overlay(self.ctx, self.window.size)
        self.sound = Sounds(self.progress.volume, self.progress.muted)
        #: the kinds of bump whose reason has been said this session (said once each)
        self.told: set[str] = set()
        self.keymap = self._keymap()
        self.running = True
        self._closed = False
        self.exit_code = 0
        self.frames = 0
        self.traced = False  #: this frame drew the room (not only the HUD, or nothing)
        #: the work of each recent live frame (events to flip), ms, with whether it
        #: compiled a shader variant: the game's own frame timing, for play-testing
        self.frame_log: deque[tuple[float, bool]] = deque(maxlen=FRAME_LOG)
        self.warmed = False
        self.clock = pygame.time.Clock()
        self.building = ""  #: what is being built off-thread, for the UI ("a hard room")
        self._build: Future | None = None
        self._build_kind = "gen"
        self._solve: Future | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._renderer = None
        self._warmer: Warmer | None = None  #: the launcher's warm-up (made on its first idle frame)
        self._want_shot = False
        self._after_frame: list = []  #: what runs once this frame is shown (after_frame)
        self._hud_scene = None  # the scene whose HUD the last frame drew
        self.last_screenshot: Path | None = None
        self.first_frame_exit = os.environ.get(FIRST_FRAME_ENV) == "1"
        self.controllers = []
        self._init_controllers()
        self.demo = demo  #: the demo plays one room by itself (``--demo``); the one flag
        self.view_tips = VIEW_TIPS_PER_SESSION  #: turns left that say what the view shows
        self.scene: Scene
        if edit is not None:  # ``anabasis edit``: an EditTarget
            self.edit(edit)
        elif opened is None:
            self.switch(Launcher(self, self._first_unsolved()))
        else:
            self.open(opened)
            if demo:
                self._start_demo(opened)

    # -- setup ----------------------------------------------------------------------------

    def _keymap(self) -> dict[int, str]:
        """Key codes to actions, from the saved bindings (unknown key names are skipped)."""
        keymap = {}
        for action, names in self.progress.keys.items():
            for name in names:
                try:
                    keymap.setdefault(pygame.key.key_code(name), action)
                except ValueError:
                    print(f"anabasis: warning: unknown key {name!r} for {action}",
                          file=sys.stderr)
        keymap.setdefault(pygame.K_KP_ENTER, "next")
        keymap[pygame.K_ESCAPE] = "back"  # whatever the file says: nobody is locked in
        return keymap

    def keys_changed(self) -> None:
        """The bindings in ``progress.keys`` changed (the keys screen): use and save them now."""
        self.keymap = self._keymap()
        self.save_progress()

    def _init_controllers(self) -> None:
        """Gamepads through SDL's game controller API, when there is one (never required)."""
        try:
            from pygame._sdl2 import controller

            controller.init()
            for i in range(controller.get_count()):
                if controller.is_controller(i):
                    self.controllers.append(controller.Controller(i))
        except Exception:  # no joystick subsystem: keyboard and mouse still work
            self.controllers = []

    def action_for(self, key: int) -> str | None:
        return self.keymap.get(key)

    def work(self, fn, /, *args, **kw):
        """Run ``fn`` on the app's worker thread, never on the frame loop: its Future."""
        return self._pool_get().submit(fn, *args, **kw)

    def _pool_get(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="anabasis-work")
        return self._pool

    # -- the loop ---------------------------------------------------------------------------

    def tick(self, dt: float | None = None) -> bool:
        """One frame: events, update by ``dt`` seconds (measured when None), draw, flip."""
        live = dt is None
        if live:
            # vsync paces a frame that was swapped; one that showed nothing new is paced here
            ms = self.clock.tick(0 if self.window.vsync and self.window.swapped else 60)
            dt = min(ms / 1000.0, 0.1)  # a long stall does not skip a whole animation
        started = time.perf_counter()
        for event in pygame.event.get():
            self._event(event)
            if not self.running:
                return False
        self._poll()
        self.warmed = False  #: set by a scene that compiled a shader variant this frame
        self.scene.update(dt)
        if self._want_shot:
            self.window.dirty = True  # drawn whole this frame, to be read back
        self.draw()
        if self._want_shot:
            self._want_shot = False
            self.screenshot()
        self.window.flip()
        self.frames += 1
        work_ms = (time.perf_counter() - started) * 1000.0
        if live:
            self.frame_log.append((work_ms, self.warmed))
        if live and self.traced and not self.warmed:
            # dynamic resolution: judged on the work of frames that drew the room (what the
            # internal size changes), not the wait for the next, and not on one that compiled
            # a shader variant (a one-off)
            self.window.adapt(work_ms)
        elif live and self.window.swapped and not self.warmed:
            self.window.adapt_fixed(work_ms)  # a new HUD alone: the part the size leaves
        while self._after_frame:
            self._after_frame.pop(0)()
        if self.frames == 1 and self.first_frame_exit:
            self.ctx.finish()
            print("first-frame", flush=True)
            self.quit(0)
        return self.running

    def run(self) -> int:
        """Tick until the game quits; the exit code."""
        try:
            while self.tick():
                pass
        finally:
            self.close()
        return self.exit_code

    def draw(self) -> None:
        self.scene.draw_gl(self.window)
        self.traced = self.window.scene_drawn  #: the room was drawn this frame
        ov = self.overlay
        # One costly thing a frame on a software rasteriser: a frame that traced the room
        # leaves a new HUD to the next (a frame later), never two frames running, never
        # the first of a scene (no HUD of the last one over it), nor one that is read back.
        ov.hold = (self.window.software and self.traced and not ov.held
                   and self.scene is self._hud_scene and not self._want_shot)
        ov.held = False
        self._hud_scene = self.scene
        self.scene.draw_overlay(ov)  # sized to the window by the resize events
        ov.hold = False  # only this frame's HUD waits
        # the room and the HUD onto the window: nothing at all when neither changed
        self.window.present(ov.texture, ov.rects, ov.version)

    def _event(self, event) -> None:
        t = event.type
        if t == pygame.QUIT:
            self.quit(0)
            return
        if t in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED):
            self.window.dirty = True  # uncovered: what the window showed may be gone
            return
        if t in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.window.resized()
            self.overlay.resize(self.window.size)
            if not self.window.fullscreen and not self.window.unseen:
                self.progress.window = self.window.size
            return
        if t == pygame.CONTROLLERDEVICEADDED:
            self.controllers = []
            self._init_controllers()
            return
        if t == pygame.KEYDOWN:
            if event.key == pygame.K_q and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.quit(0)  # Ctrl+Q (Cmd+Q): quit from anywhere
                return
            # the keys screen waiting for a key takes every key (but Ctrl+Q) as it is
            action = None if self.scene.capturing else self.action_for(event.key)
            if action == "fullscreen":
                self.window.toggle_fullscreen()
                self.overlay.resize(self.window.size)
                self.progress.fullscreen = self.window.fullscreen
                return
            if action == "screenshot":
                self._want_shot = True
                return
            if action in SOUND_ACTIONS and not getattr(self.scene, "typing", False):
                self.sound_key(action)  # (a room code being typed takes - and m as text)
                return
        self.scene.handle(event)

    def _poll(self) -> None:
        """Collect work finished off-thread: a built room, a demo's solution."""
        if self._build is not None and self._build.done():
            future, self._build = self._build, None
            label, self.building = self.building, ""
            try:
                made = future.result()
            except Exception as e:
                self._tell(f"could not build {label}: {e}")
            else:
                self.open(opened_made(made, self._build_kind))
        if self._solve is not None and self._solve.done():
            future, self._solve = self._solve, None
            solution = future.result()
            if solution.status != "solved":
                print(f"anabasis: the demo found no solution ({solution.status})",
                      file=sys.stderr)
                self.quit(1)
            else:
                self.scene.play_moves(solution.moves)

    def sound_key(self, action: str) -> None:
        """M, - or =: mute (or not), or the volume a step down or up; said, and kept."""
        sound, progress = self.sound, self.progress
        if action == "mute":
            sound.muted = not sound.muted
        else:
            sound.set_volume(sound.volume + (VOLUME_STEP if action == "volume_up"
                                             else -VOLUME_STEP))
            sound.muted = False  # changing the volume is wanting to hear it
        progress.volume, progress.muted = sound.volume, sound.muted
        mute = self._key_name("mute")
        if sound.muted:
            text = "sound off" + (f" · {mute} turns it on" if mute else "")
        else:
            text = f"sound on · volume {round(sound.volume * 100)}%"
            if not sound.available:
                text += " (no sound device here: the game is silent)"
        self.scene.say(text, "dim", 1.5)

    def _key_name(self, action: str) -> str:
        """The first key bound to ``action``, as the player reads it ("" for none)."""
        from anabasis.app.keys import key_label

        names = self.progress.keys.get(action) or []
        return key_label(names[0]) if names else ""

    # -- scenes -----------------------------------------------------------------------------

    def switch(self, scene: Scene, title: str | None = None) -> None:
        """Put ``scene`` on screen (the one place scenes change); ``title`` for the caption."""
        self.scene = scene
        self.retitle(title)

    def after_frame(self, fn) -> None:
        """Run ``fn()`` once this frame is shown: after its flip, outside its work.

        For what would cost the frame more than its own time: starting worker processes
        forks the fork server, and the new workers run their first milliseconds at normal
        priority, on the core the rasteriser's second thread draws this frame with.
        """
        self._after_frame.append(fn)

    def retitle(self, title: str | None) -> None:
        """The window's caption: "Anabasis", and what is on screen when ``title`` says (set
        only when it changes: the editor asks after every edit)."""
        caption = f"Anabasis · {title}" if title else "Anabasis"
        if caption != pygame.display.get_caption()[0]:
            pygame.display.set_caption(caption)

    def open(self, opened: Opened) -> None:
        """Play ``opened``."""
        self.switch(Play(self, opened), opened.title)

    def edit(self, target=None) -> None:
        """The room editor on ``target`` (an :class:`~anabasis.app.editor.EditTarget`; None:
        a new room)."""
        from anabasis.app.editor import Editor

        editor = Editor(self, target)
        self.switch(editor, editor.title)

    def _first_unsolved(self, otherwise: int = 0) -> int:
        """The launcher's selection: the first level not yet won at all; else the first won
        only with hints (still to solve alone); else ``otherwise``.  A player who took hints
        to get through a level moves on, as after a clean win."""
        from anabasis.formats import levels

        keys = [level_key(n) for n in range(1, levels.count() + 1)]
        won = self.progress.solved | self.progress.hinted
        for wins in (won, self.progress.solved):
            for i, key in enumerate(keys):
                if key not in wins:
                    return i
        return otherwise

    def show_keys(self, return_to: int) -> None:
        """The keys screen; leaving it comes back to the launcher's line ``return_to``."""
        self.switch(KeysScreen(self, return_to))

    def to_launcher(self, selected: int | None = None) -> None:
        """The launcher, on line ``selected`` (default: the first level not yet solved; with
        every level solved, the level just left, else the first)."""
        if self.demo:
            # the demo is a smoke test: leaving it early is not a win
            print("anabasis: the demo was stopped before the win", file=sys.stderr)
            self.quit(1)
            return
        if selected is None:
            left = self.scene.level - 1 if self.scene.level else 0
            selected = self._first_unsolved(left)
        self.save_progress()
        self.switch(Launcher(self, selected))

    def next_after(self, opened: Opened) -> None:
        """Enter after a win: the next level, a new room of the same tier, or the launcher."""
        from anabasis.formats import levels

        if opened.kind == "level" and opened.level < levels.count():
            self.open(open_level(opened.level + 1))
        elif opened.tier and opened.kind == "gen":
            self.build_room(opened.tier)
        else:
            self.to_launcher()
            if opened.kind == "level":
                self.scene.say("every level done: try a room made to order")

    def _tell(self, text: str) -> None:
        """Something went wrong off-thread: on screen, and on stderr for the record."""
        self.scene.say(text, "warn", 5.0)
        print(f"anabasis: {text}", file=sys.stderr)

    def build_room(self, tier: str, seed: int | None = None) -> None:
        """Build a made room off the main thread; it opens when ready ("building…" till then)."""
        if seed is None:
            # a fresh room each time; six base-36 digits are plenty to share
            seed = int.from_bytes(os.urandom(4), "little") % 36**6
        self._start_build(tier, seed, "gen", f"a {tier} room")

    def build_daily(self, date: str | None = None) -> None:
        """Today's room (or that day's), built off the main thread."""
        from anabasis import gen

        self._start_build("hard", gen.daily_seed(date), "daily", "today's room")

    def _start_build(self, tier: str, seed: int, kind: str, label: str) -> None:
        from anabasis import gen

        if self._build is not None:
            return  # one at a time; the one building opens when ready
        self.building = label
        self._build_kind = kind
        self._build = gen.build_async(tier, seed)

    def _start_demo(self, opened: Opened) -> None:
        from anabasis.engine import solver

        self._solve = self._pool_get().submit(solver.solve, opened.room)

    def demo_won(self, moves: int, par: int | None) -> None:
        print(f"won: {moves} moves (par {par if par is not None else '?'})", flush=True)
        self.quit(0)

    def quit(self, code: int = 0) -> None:
        self.running = False
        self.exit_code = code

    # -- the renderer -------------------------------------------------------------------------

    def renderer_for(self, room, ruled: bool = True):
        """The renderer for ``room`` (one at a time), or None where it could not be made;
        ``ruled=False``: a drawing of its cells as placed (``render.Renderer``'s)."""
        old = self._renderer
        if old is not None and old.ruled == ruled:
            if old.room == room:
                return old
            try:
                if old.set_room(room):
                    return old  # the same size: its texture written again, not made anew
            except Exception as e:
                print(f"anabasis: warning: the renderer failed: {e}", file=sys.stderr)
        from anabasis.picture import render

        if self._renderer is not None:
            self._renderer.release()
            self._renderer = None
        try:
            self._renderer = render.Renderer(self.ctx, room, ruled=ruled)
        except Exception as e:  # a broken shader must not take the game down
            print(f"anabasis: warning: the renderer failed: {e}", file=sys.stderr)
            self._renderer = None
        return self._renderer

    def warm_step(self) -> None:
        """Compile one more of the ray tracer's variants (from the launcher, while idle).

        Level 1's first, in the order a player meets them, then a wrapped room's (the
        wrap is a variant of its own).  The programs are shared by every room's
        renderer, so these serve every level and made room.
        """
        if self._warmer is None:
            self._warmer = Warmer(_warm_plan())
        if self._warmer.step(self.renderer_for):
            self.warmed = True  # one compile per frame

    @property
    def warm_done(self) -> bool:
        """Every variant :meth:`warm_step` compiles is compiled (or cannot be)."""
        return self._warmer is not None and self._warmer.done

    # -- outside the game -----------------------------------------------------------------------

    def screenshot(self) -> Path:
        """Save the window as drawn (its default framebuffer) as a PNG; the path."""
        folder = (self.progress.path.parent if self.progress.path else data_dir()) / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"anabasis-{stamp}.png"
        n = 1
        while path.exists():
            n += 1
            path = folder / f"anabasis-{stamp}-{n}.png"
        pygame.image.save(self.window.read_screen(), str(path))
        self.last_screenshot = path
        self.scene.say(f"screenshot saved: {path}", "dim", 3.0)
        return path

    def copy(self, text: str) -> bool:
        """Put ``text`` on the clipboard; False where there is no clipboard."""
        try:
            import pygame.scrap as scrap

            scrap.put_text(text)  # SDL's clipboard (pygame-ce >= 2.2: no init needed)
            return True
        except Exception:
            return False

    def paste(self) -> str | None:
        try:
            import pygame.scrap as scrap

            text = scrap.get_text()
            return text or None
        except Exception:
            return None

    def save_progress(self) -> None:
        try:
            self.progress.save()  # held (the file could not be read): kept in memory
        except OSError as e:
            print(f"anabasis: warning: could not save progress: {e}", file=sys.stderr)

    def close(self) -> None:
        """Save, stop the workers, close the window (once; again does nothing)."""
        if self._closed:
            return
        self._closed = True
        if not self.window.fullscreen and not self.window.unseen:
            self.progress.window = self.window.size
        self.save_progress()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if "anabasis.app.proofs" in sys.modules:
            from anabasis.app import proofs

            proofs.close_all()  # the editor's proof workers
        if self._build is not None or "anabasis.gen" in sys.modules:
            try:
                from anabasis import gen

                gen.shutdown()
            except Exception:
                pass
        from anabasis.app import hints

        hints.shutdown()
        self.sound.close()
        self.window.close()


def _warm_plan() -> list:
    """(room, poses) pairs whose drawing compiles every variant of the ray tracer."""
    from anabasis.engine import rules
    from anabasis.formats import levels

    try:
        rooms = [levels.load_level(n) for n in range(1, levels.count() + 1)]
    except Exception:  # a broken level file: the launcher shows it; nothing to warm
        return []
    wrapped = [room for room in rooms if room.wrap]
    return [(room, warm_poses(room, rules.start(room).state))
            for room in rooms[:1] + wrapped[:1]]
