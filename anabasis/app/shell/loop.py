"""The frame loop: one :class:`Loop`, the scene on screen, one frame per tick, and its services.

``App.tick(dt)`` is the whole loop body: read the pending pygame events,
let the scene act on them, advance time by ``dt``, draw, flip.  ``run()``
calls it until the game quits; tests call it directly, a frame at a time,
with events they post themselves and a fixed ``dt``, so the real window and
the real GL context are driven exactly as a player would drive them.

The loop knows no scene by name: :class:`anabasis.app.routes.App` (the
game) says which scene comes first and which follows which.  What the loop
serves every scene: the window and the overlay, saved progress and the
keymap, sound, the renderer (one at a time), a worker thread, futures
collected once a frame (:meth:`Loop.when_done`), the clipboard, screenshots.

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

from anabasis.app.settings import keymap
from anabasis.app.settings.progress import Progress, data_dir
from anabasis.app.shell import workers
from anabasis.app.shell.overlay import Overlay
from anabasis.app.shell.scene import Scene
from anabasis.app.shell.sound import VOLUME_STEP, Sounds
from anabasis.app.shell.window import Window

DEFAULT_SIZE = (1280, 720)
#: Set to 1 to draw one frame, print ``first-frame`` and exit (``anabasis bench``'s startup).
FIRST_FRAME_ENV = "ANABASIS_FIRST_FRAME"
FRAME_LOG = 3600  #: live frames whose timing is kept (a minute at 60 fps)
SOUND_ACTIONS = ("mute", "volume_down", "volume_up")  #: taken by the loop in every scene


class Loop:
    """The frame loop and what it serves every scene; :class:`~anabasis.app.routes.App` puts
    the first scene on screen."""

    scene: Scene

    def __init__(self, *, size: tuple[int, int] | None = None, demo: bool = False,
                 data_dir: str | os.PathLike | None = None):
        self.progress = Progress.load(data_dir)
        if self.progress.warning:
            print(f"anabasis: warning: {self.progress.warning}", file=sys.stderr)
        size = size or self.progress.window or DEFAULT_SIZE
        self.window = Window(size, fullscreen=self.progress.fullscreen and not demo)
        self.ctx = self.window.ctx
        self.overlay = Overlay(self.ctx, self.window.size)
        self.overlay.text_scale = self.progress.text_size
        self.sound = Sounds(self.progress.volume, self.progress.muted)
        self.keymap = keymap.Keymap(self.progress.keys)  #: every key event read once
        self.running = True
        self._closed = False
        self.exit_code = 0
        self.frames = 0
        self.traced = False  #: this frame drew the room (not only the HUD, or nothing)
        #: the work of each recent live frame (events to flip), ms, with whether it
        #: compiled a shader variant: the game's own frame timing, for play-testing
        self.frame_log: deque[tuple[float, bool]] = deque(maxlen=FRAME_LOG)
        #: ... and, apart, the work of each live frame that drew the room sharp at rest
        #: (``Window.begin_sharp``: once while nothing moves, not a frame of motion)
        self.sharp_log: deque[float] = deque(maxlen=FRAME_LOG)
        self.warmed = False
        self.clock = pygame.time.Clock()
        #: work off-thread, and what takes its result on the loop's thread (when_done)
        self._waiting: list[tuple[Future, object]] = []
        self._pool: ThreadPoolExecutor | None = None
        self._renderer = None
        self._want_shot = False
        #: the keys pressed and not yet let go, as the frames' events say (:func:`unrepeated`)
        self._held: set[int] = set()
        self._after_frame: list = []  #: what runs once this frame is shown (after_frame)
        self._hud_scene = None  # the scene whose HUD the last frame drew
        self.last_screenshot: Path | None = None
        self.first_frame_exit = os.environ.get(FIRST_FRAME_ENV) == "1"
        self.controllers = []
        self._init_controllers()
        self.demo = demo  #: the demo plays one room by itself (``--demo``); the one flag

    # -- setup ----------------------------------------------------------------------------

    def keys_changed(self) -> None:
        """The bindings in ``progress.keys`` changed (the keys screen): use and save them now."""
        self.keymap = keymap.Keymap(self.progress.keys)
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
        """The game's action for key code ``key`` (what play and the menus read)."""
        return self.keymap.get(key)

    def work(self, fn, /, *args, **kw):
        """Run ``fn`` on the app's worker thread, never on the frame loop: its Future."""
        return self._pool_get().submit(fn, *args, **kw)

    def when_done(self, future: Future, take) -> None:
        """Call ``take(future)`` on the loop's thread, the first frame ``future`` is done."""
        self._waiting.append((future, take))

    def _pool_get(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = workers.thread_pool()
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
        for event in unrepeated(pygame.event.get(), self._held):
            self._event(event)
            if not self.running:
                return False
        self._poll()
        self.warmed = False  #: the scene compiled a shader variant this frame (its draw_gl)
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
        if live and self.window.sharp and self.traced:
            # the room drawn sharp, at rest (once): logged apart, no part of what a moving
            # frame costs, and not judged by the dynamic resolution
            self.sharp_log.append(work_ms)
        elif live:
            self.frame_log.append((work_ms, self.warmed))
            if self.traced and not self.warmed:
                # dynamic resolution: judged on the work of frames that drew the room (what
                # the internal size changes), not the wait for the next, and not on one that
                # compiled a shader variant (a one-off)
                self.window.adapt(work_ms)
            elif self.window.swapped and not self.warmed:
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
        self.warmed = bool(self.scene.draw_gl(self.window))
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
        self.window.present(ov.texture, ov.rects, ov.version, ov.layers)

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
        action = None
        capturing = self.scene.capturing
        if t in (pygame.KEYDOWN, pygame.KEYUP):
            # the one place a key becomes an action, read where the scene reads keys (its
            # ``keys``: play, the editor, a menu, a text field); a scene waiting for a key
            # takes every key as it is, and one typing in a field only the field's keys
            where = self.scene.keys
            if not capturing or where == keymap.FIELD:
                action = self.keymap.action(where, event)
        if t == pygame.KEYDOWN:
            if event.key == pygame.K_q and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.quit(0)  # Ctrl+Q (Cmd+Q): quit from anywhere
                return
            if not capturing and self._window_key(action):
                return  # (capturing: no fullscreen, screenshot or sound keys, every key is
                # the scene's)
        self.scene.handle(event, action)

    def _window_key(self, action: str | None) -> bool:
        """The actions the loop takes in every scene: fullscreen, a screenshot, the sound;
        True if ``action`` was one."""
        if action == "fullscreen":
            self.window.toggle_fullscreen()
            self.overlay.resize(self.window.size)
            self.progress.fullscreen = self.window.fullscreen
            return True
        if action == "screenshot":
            self._want_shot = True
            return True
        if action in SOUND_ACTIONS and not getattr(self.scene, "typing", False):
            self.sound_key(action)  # (a room code being typed takes - and m as text)
            return True
        return False

    def _poll(self) -> None:
        """Collect work finished off-thread (a built room, a demo's solution), in order."""
        if not self._waiting:
            return
        done = [(f, take) for f, take in self._waiting if f.done()]
        for item in done:
            self._waiting.remove(item)
        for future, take in done:
            take(future)

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
        mute = self.keymap.label("mute")
        if sound.muted:
            text = "sound off" + (f" · {mute} turns it on" if mute else "")
        else:
            text = f"sound on · volume {round(sound.volume * 100)}%"
            if not sound.available:
                text += " (no sound device here: the game is silent)"
        self.scene.say(text, "dim", 1.5)

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

    def _tell(self, text: str) -> None:
        """Something went wrong off-thread: on screen, and on stderr for the record."""
        self.scene.say(text, "warn", 5.0)
        print(f"anabasis: {text}", file=sys.stderr)

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
            self._renderer.palette_of = lambda: self.progress.palette  # the settings' colours
        except Exception as e:  # a broken shader must not take the game down
            print(f"anabasis: warning: the renderer failed: {e}", file=sys.stderr)
            self._renderer = None
        return self._renderer

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

    def copy_code(self, code: str) -> None:
        """A room code to the clipboard, said on screen; printed where there is no clipboard
        (play's C and the editor's alike)."""
        if self.copy(code):
            self.scene.say(f"room code copied: {code}")
        else:
            print(f"room code: {code}", flush=True)
            self.scene.say(f"no clipboard here; the code is printed: {code}", "warn", 6.0)

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
        self.stop_workers()
        self.sound.close()
        self.window.close()

    def stop_workers(self) -> None:
        """Stop the worker processes the scenes started (every one is :mod:`workers`')."""
        workers.shutdown()


def unrepeated(events: list, held: set) -> list:
    """A frame's ``events`` less each key's repeat that a release of that key follows in the
    same frame; ``held`` (the keys pressed and not let go, kept from frame to frame) is kept
    up to date.  pygame repeats a held key from a timer of its own: where a frame takes
    longer than the repeat's delay (software GL, a busy machine), a quick press is repeated
    before its release is read, and two blind players' one press of an arrow took two moves
    (a push, then a climb onto the crate).  A key truly held repeats as ever; its last
    repeat, read with its release, is dropped.

    >>> down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_UP)
    >>> up = pygame.event.Event(pygame.KEYUP, key=pygame.K_UP)
    >>> held = set()
    >>> [e.type for e in unrepeated([down], held)] == [pygame.KEYDOWN]
    True
    >>> [e.type for e in unrepeated([down, up, down, up], held)] == [pygame.KEYUP,
    ...                                                              pygame.KEYDOWN, pygame.KEYUP]
    True
    """
    out = []
    for i, event in enumerate(events):
        if event.type == pygame.KEYDOWN:
            key = event.key
            if key in held and any(e.type == pygame.KEYUP and e.key == key
                                   for e in events[i + 1:]):
                continue  # (a repeat of a press whose release was already on its way)
            held.add(key)
        elif event.type == pygame.KEYUP:
            held.discard(event.key)
        out.append(event)
    return out
