"""The launcher: the chapters and their levels, made rooms, today's room, a code, keys, quit.

A menu in two columns on a wide window (the levels; made rooms and the
rest), one column on a narrow one: arrows (or W/S, or a gamepad's d-pad)
move the selection, Left/Right switch columns, Enter/Space (or the
gamepad's A) opens, the mouse hovers and clicks, the wheel scrolls, digits
open a level directly ("keys…" opens the keys screen).  "Open a room
code" switches to a text field that takes typing and Ctrl+V; a bad code is
refused there with the decoder's message, never opened as another room.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pygame

from anabasis.app.menus.menu import Menu
from anabasis.app.play import hud, legend, session
from anabasis.app.settings import campaign as chapters
from anabasis.app.settings.keymap import FIELD, MENU
from anabasis.app.settings.progress import level_key
from anabasis.app.shell.overlay import DIM, GOLD, GOOD, INK, WARN
from anabasis.app.shell.textfield import TextField
from anabasis.app.viewer.drawstate import Warmer, warm_plan
from anabasis.formats import levelfile

#: The keys line at the bottom (each ``{action}`` written as its key, ``Keymap.text``).
HINT = ("{menu_up}/{menu_down} choose · {menu_left}/{menu_right} columns · {choose} open"
        " · {open_1}-{open_last} a level · {help} help · {settings} settings · {leave} quit")
#: The code field's keys.
FIELD_KEYS = "{field_done} opens · {paste} pastes · {field_cancel} cancels"
#: the kinds of line in the left column: the chapters and their levels
LEVEL_COLUMN = ("level", "broken", "locked")
CHECK = "\u2713"  #: ✓ beside a solved level (the shipped font has it; pygame's own has not)

@dataclass(frozen=True)
class LauncherShown:
    """Everything the launcher shows, made once a frame: drawn from this value alone."""

    size: tuple[int, int]
    items: tuple
    selected: int
    typing: bool
    code_text: str
    error: str
    status: str
    building: str
    notice: str
    hint: str = ""  #: the keys line at the bottom, each key as bound
    field_keys: str = ""  #: the code field's keys line, each key as bound
    #: the help over the launcher, open: (its page, the help's key, the keys that turn its
    #: pages back and on, the palette); () closed
    help: tuple = ()


@dataclass(frozen=True)
class Item:
    """One line of the menu."""

    label: str
    #: ("level", n) (chapter 1) / ("level", n, chapter) / ("locked", chapter) /
    #: ("gen", tier) / ("daily",) / ("code",) / ("edit",) / ("keys",) / ("quit",)
    action: tuple
    detail: str = ""
    right: str = ""
    done: bool = False
    hinted: bool = False  #: won only with hints: a different mark from a clean solve
    header: str = ""  #: a section title drawn above this item


class Launcher(Menu):
    """The first screen."""

    name = "launcher"

    def __init__(self, app, selected: int = 0, chapter_list=None):
        self.app = app
        self._chapter_list = chapter_list  #: another list of chapters (tests): the shipped
        #: the level lines whose maps are still to be checked, a level a frame (``update``)
        self._unchecked: list[tuple[chapters.ChapterState, int]] = []
        self.items = self._items()
        self.selected = min(selected, len(self.items) - 1)
        self._scrolls: dict[int, int] = {}
        self.clock = 0.0
        self._last_input = 0.0
        self.rects: list[pygame.Rect] = []
        self.typing = False  #: entering a room code
        self.field: TextField | None = None  #: the code's text field, while typing
        self.error = ""
        self.status = ""
        #: the help's page open over the launcher (the game's help: its rules and marks),
        #: or None (a blind player pressed H there before a room, and nothing came, t313)
        self.help_page: int | None = None

    @property
    def keys(self) -> str:
        """Where the keymap reads keys: the code field's while typing, else the menu's."""
        return FIELD if self.typing else MENU

    def _items(self) -> list[Item]:
        from anabasis import gen

        progress = self.app.progress
        items = []
        self.states = chapters.campaign(progress, self._chapter_list)
        for state in self.states:
            items += self._chapter_items(state, progress)
        for i, tier in enumerate(gen.TIERS):
            items.append(Item(f"a new {tier} room", ("gen", tier),
                              gen.TIER_TEXT[tier], header="Rooms made to order" if i == 0 else ""))
        items.append(Item("today's room", ("daily",),
                          f"a hard room, the same for everyone on {gen.today()} (UTC)"))
        items.append(Item("open a room code…", ("code",),
                          self.app.keymap.text("type or paste ({paste}) a shared code, or a "
                                               "made room's name (hard.k3x9)")))
        items.append(Item("make a room…", ("edit",),
                          "a new room or one of yours: build it, see it proved, share its code"))
        items.append(Item("keys…", ("keys",), "see and change what each key does"))
        items.append(Item("quit", ("quit",)))
        return items

    def _chapter_items(self, state: chapters.ChapterState, progress) -> list[Item]:
        """A chapter's lines: its levels (with progress and bests) if it is open, else one
        line that says what opens it.  The chapter's title and progress head its first."""
        c = state.number
        header = f"chapter {c} · {state.title} · {state.progress_text}"
        if not (state.open and state.playable):
            why = state.lock_text if state.playable else "needs a later release of the game"
            label = f"closed: {state.count} levels"
            if state.won:  # (won from a shared code: a blind player read "1 of 8 solved" over
                label += f", {state.won} won already"  # "closed" as a contradiction)
            return [Item(label, ("locked", c), why, header=header)]
        items = []
        for n in range(1, state.count + 1):
            label = str(n) if c == 1 else f"{c}.{n}"
            action = ("level", n) if c == 1 else ("level", n, c)
            try:  # the header alone: the map is checked later, a level a frame
                head = _header(state, n)
            except Exception as e:  # a broken level file shows, and cannot be opened
                items.append(_broken(label, n, e, header if n == 1 else ""))
                continue
            self._unchecked.append((state, n))
            key = level_key(n, c)
            best = progress.best.get(key)
            par = head.get("par")
            right = f"par {par}" if par is not None else ""
            if best is not None:
                right += f"  ·  best {best}"
            helped = progress.best_hinted.get(key)
            if helped is not None and (best is None or helped < best):
                right += f"  ·  with hints {helped}"
            items.append(Item(f"{label}  {head.get('name') or 'level'}", action,
                              head.get("teaches", ""), right, done=key in progress.solved,
                              hinted=key in progress.hinted and key not in progress.solved,
                              header=header if n == 1 else ""))
        return items

    def _check(self, state: chapters.ChapterState, n: int) -> bool:
        """Level ``n`` of ``state``'s chapter read whole: False (and its line marked
        unreadable) where its file is refused."""
        if (state, n) in self._unchecked:
            self._unchecked.remove((state, n))
        error = _map_error(state, n)
        if error is None:
            return True
        i = self.index_of(state.number, n)
        if i is not None:
            label = str(n) if state.number == 1 else f"{state.number}.{n}"
            self.items[i] = _broken(label, n, error, self.items[i].header)
        return False

    def index_of(self, chapter: int, n: int | None) -> int | None:
        """The line of level ``n`` of ``chapter`` (None: of the chapter, closed), if shown."""
        want = ("level", n) if chapter == 1 else ("level", n, chapter)
        for i, item in enumerate(self.items):
            if item.action == want or (n is None and item.action == ("locked", chapter)):
                return i
        return None

    # -- input ----------------------------------------------------------------------

    def handle(self, event, action: str | None = None) -> None:
        self._last_input = self.clock
        if self.typing:
            self._handle_typing(event, action)
            return
        if event.type == pygame.KEYDOWN and self.help_page is not None:
            # a key over the help, as in a room (the arrows across turn its pages)
            self.help_page = hud.help_after(self.help_page, action, "menu_left", "menu_right")
        elif event.type == pygame.KEYDOWN:
            # the menu's own keys (the arrows, Enter, Space, Esc, the digits) as the keymap
            # read them, before the game's; rebound movement keys work too
            if action == "help":
                self.help_page = 0
            elif self.steer(action):
                pass
            elif action == "choose":
                self.activate(self.selected)
            elif action == "leave":
                self.app.quit()
            elif action == "settings":
                self.app.show_settings()  # the settings screen (its key: O, F10)
            elif action is not None and action.startswith("open_"):
                n = int(action[5:])
                for i, item in enumerate(self.items):
                    if item.action == ("level", n):
                        self.activate(i)
        else:
            self.pointer_and_pad(event)

    def _handle_typing(self, event, action: str | None) -> None:
        got = self.field.handle(event, action=action)
        if got == "edited":
            self.error = ""
        elif got == "no-paste":
            self.error = "nothing to paste (no clipboard here): type the code"
        elif got == "cancel":
            self.typing = False
            self.field.close()
        elif got == "enter":
            self._open_code(self.code_text)

    def _hint(self) -> str:
        """The keys line (a template of ``{action}`` fields): the levels' digits as far as
        the tutorial goes, the settings key while it has one."""
        last = min(9, sum(1 for item in self.items if len(item.action) == 2
                          and item.action[0] in ("level", "broken")))
        hint = HINT.replace("{open_last}", f"{{open_{last}}}")
        settings = self.app.keymap.label("settings")
        return hint.replace(" · {settings} settings", "") if not settings else hint

    def _switch_column(self) -> None:
        """Left/Right: between the levels and the rest (two columns on a wide window)."""
        on_level = self.items[self.selected].action[0] in LEVEL_COLUMN
        for i, item in enumerate(self.items):
            if (item.action[0] in LEVEL_COLUMN) != on_level:
                self.selected = i
                return

    def activate(self, i: int) -> None:
        """Open what item ``i`` names."""
        item = self.items[i]
        kind = item.action[0]
        if kind == "level":
            n, c = item.action[1], (item.action[2] if len(item.action) > 2 else 1)
            state = next(s for s in self.states if s.number == c)
            if self._check(state, n):
                self.app.open(session.open_level(*item.action[1:]))
        elif kind == "locked":
            state = self.states[item.action[1] - 1]
            self.status = (f"chapter {state.number} {state.lock_text}" if state.playable
                           else f"chapter {state.number} needs a later release of the game")
        elif kind == "gen":
            self.app.build_room(item.action[1])
        elif kind == "daily":
            self.app.build_daily(None)
        elif kind == "code":
            self.typing = True
            self.field = TextField(paste=self.app.paste)
            self.error = ""
        elif kind == "edit":
            self.app.make_a_room()
        elif kind == "keys":
            self.app.show_keys(i)
        elif kind == "quit":
            self.app.quit()

    def _open_code(self, text: str) -> None:
        text = text.strip()
        if not text:
            self.error = "type or paste a room code first"
            return
        from anabasis import gen

        if gen.is_spec(text):  # a made room's name, as the game shows it: hard.k3x9
            try:
                tier, seed = gen.parse_spec(text)
            except gen.GenError as e:
                self.error = str(e)
                return
            self.typing, self.error = False, ""
            self.field.close()
            # (Esc from it comes back to this box, not to the tier's line: blind players,
            # back from a room opened here, sat one Enter from a new random room)
            if text.lower().startswith("daily"):
                day = text.partition(".")[2]
                self.app.build_daily(None if day.lower() in ("", "today") else day,
                                     back_line=("code",))
            else:
                self.app.build_room(tier, seed, back_line=("code",))
            return
        try:
            opened = session.open_code(text)
        except Exception as e:  # codes.CodeError, or a code whose room does not hold up
            self.error = f"not a room code: {e}"
            return
        self.typing, self.error = False, ""
        self.field.close()
        self.app.open(opened)

    @property
    def code_text(self) -> str:
        """The room code typed so far."""
        return self.field.text if self.field is not None else ""

    @code_text.setter
    def code_text(self, text: str) -> None:
        if self.field is not None:
            self.field.text = text

    def say(self, text: str, kind: str = "info", seconds: float = 0.0) -> bool:
        """The status line (it stays till the next one)."""
        self.status = text
        return True

    def update(self, dt: float) -> None:
        self.clock += dt
        if self._unchecked and self.app.frames >= 1:  # never in the first frame
            self._check(*self._unchecked[0])

    # -- drawing ----------------------------------------------------------------------

    def draw_gl(self, window) -> bool:
        """The launcher has no 3D scene of its own: a dark backdrop.

        While the player reads it, the ray tracer's variants are compiled, one
        per idle frame, so that the first moves in a room never wait for them.
        """
        app = self.app
        warm = (self.clock - self._last_input > 0.25 and app.frames >= 2
                and not app.warm_done)
        # the backdrop stays in the target until the target is remade (or a variant is
        # drawn into a pixel of it): an idle launcher draws nothing, as an idle room does
        if warm or window.dirty or getattr(self, "_backdrop", None) != window.scene_serial:
            window.begin_scene()
            self._backdrop = window.scene_serial
        return warm and self._warm_step()

    def _warm_step(self) -> bool:
        """Compile one more of the ray tracer's variants (``warm_plan``'s); the warm-up is
        the app's, kept from one visit of the launcher to the next."""
        app = self.app
        if app.warmer is None:
            app.warmer = Warmer(warm_plan())
        return app.warmer.step(app.renderer_for)  # one compile per frame

    def draw_overlay(self, ov) -> None:
        keys = self.app.keymap
        opened = ()
        if self.help_page is not None:
            opened = (self.help_page, keys.label("help"), hud.page_key(keys, "left"),
                      hud.page_key(keys, "right"), self.app.progress.palette)
        shown = LauncherShown(ov.size, tuple(self.items), self.selected, self.typing,
                              self.code_text, self.error, self.status, self.app.building,
                              self.app.progress.notice, keys.text(self._hint()),
                              keys.text(FIELD_KEYS), opened)
        if not ov.begin(shown):  # drawn from this value alone, again only when it changes
            return
        v = shown
        W, H = ov.size
        s = ov.scale
        big, mid, small = int(54 * s), int(24 * s), int(18 * s)
        ov.text("ANABASIS", (int(60 * s), int(36 * s)), big, GOLD)
        ov.text("a climb through a 4D room with two gravities", (int(64 * s), int(36 * s) + big),
                small, DIM)
        top = int(36 * s) + big + int(40 * s)
        bottom = H - int(56 * s)
        line_h = int(mid * 1.35 + small * 1.1)
        head_h = int(small * 1.8)
        two = W >= 1000  # levels on the left, made rooms and the rest on the right
        margin, gap = int(60 * s), int(50 * s)
        col_w = (W - 2 * margin - gap) // 2 if two else W - 2 * margin
        columns = [[], []]
        for i, item in enumerate(v.items):
            columns[1 if two and item.action[0] not in LEVEL_COLUMN else 0].append(i)
        self.rects = [pygame.Rect(0, 0, 0, 0)] * len(v.items)
        for c, members in enumerate(columns):
            if not members:
                continue
            x0 = margin + c * (col_w + gap)
            x1 = x0 + col_w
            heights = [line_h + (head_h if v.items[i].header else 0) for i in members]
            # scroll the column that holds the selection so that it stays on screen
            scroll = self._scrolls.get(c, 0)
            if v.selected in members:
                k = members.index(v.selected)
                y_sel = sum(heights[: k + 1])
                if y_sel - scroll > bottom - top:
                    scroll = y_sel - (bottom - top)
                if y_sel - heights[k] < scroll:
                    scroll = max(0, y_sel - heights[k])
                self._scrolls[c] = scroll
            y = top - scroll
            above = below = False
            for i in members:
                item = v.items[i]
                if item.header:
                    if top <= y and y + head_h + line_h <= bottom:
                        ov.text(item.header.upper(), (x0, y + int(4 * s)), small, DIM)
                    y += head_h
                rect = pygame.Rect(x0 - 12, y, x1 - x0 + 24, line_h - 4)
                if y < top or y + line_h > bottom:
                    above, below = above or y < top, below or y >= top
                    y += line_h
                    continue
                self.rects[i] = rect
                if i == v.selected:
                    ov.panel(rect, (60, 70, 100, 210), 8)
                colour = GOOD if item.done else DIM if item.action[0] == "locked" else INK
                if item.done:
                    ov.text(CHECK, (x0 - 4, y + 2), mid, GOOD)
                elif item.hinted:  # solved, but with hints: a hollow ring, not a tick
                    _ring(ov.surface, (x0 + int(mid * 0.3), y + mid // 2 + 4), int(mid * 0.3),
                          GOLD)
                ov.text(item.label, (x0 + int(22 * s), y + 2), mid, colour)
                if item.right:
                    ov.text(item.right, (x1, y + 4), small, GOLD, anchor="topright")
                if item.detail:
                    detail, limit = item.detail, col_w - int(40 * s)
                    if ov.width_of(detail, small) > limit:
                        while len(detail) > 4 and ov.width_of(detail + "…", small) > limit:
                            detail = detail[:-1]
                        detail = detail.rstrip() + "…"
                    ov.text(detail, (x0 + int(34 * s), y + mid + 2), small, DIM)
                y += line_h
            # a short window: say that the list goes on past its edge
            if above:
                _more(ov, (x1, top - int(14 * s)), -1, s)
            if below:
                _more(ov, (x1, bottom - int(6 * s)), +1, s)
        hint = v.hint
        if v.building:
            hint = f"building {v.building}…"
        if v.status:
            ov.text(v.status, (W // 2, H - int(50 * s)), mid, GOLD, anchor="center")
        ov.text(hint, (W // 2, H - int(26 * s)), int(19 * s), INK, anchor="center")
        if v.notice:  # says what was done: set aside, or kept in memory
            for k, line in enumerate(ov.wrap(v.notice, small, W // 2)[:3]):
                ov.text(line, (W - int(60 * s), int(40 * s) + k * (small + 4)), small, WARN,
                        anchor="topright")
        if v.typing:
            box = pygame.Rect(0, 0, int(W * 0.7), int(150 * s))
            box.center = (W // 2, H // 2)
            ov.panel(box, (20, 24, 34, 240), 12)
            ov.text("Open a room code", (box.x + 20, box.y + 14), mid, GOLD)
            from anabasis import gen
            from anabasis.formats import codes  # (its tables: made once a code is typed)

            if gen.is_spec(v.code_text):  # a made room's name: as typed
                shown = codes.Display((v.code_text.strip(),), ())
            else:
                shown = codes.display(v.code_text)  # in groups of four, as codes are shown
            typed = shown.text
            while len(typed) > 4 and ov.width_of(typed + "_", mid) > box.width - 40:
                typed = typed[5:] if typed[4:5] == " " else typed[1:]  # the end stays seen
            ov.text(typed + "_", (box.x + 20, box.y + 20 + mid + 8), mid, INK)
            if shown.legend:
                ov.text(shown.legend, (box.x + 20, box.y + 28 + 2 * mid + 8), small, DIM)
            ov.text(v.error or v.field_keys,
                    (box.x + 20, box.bottom - small - 14), small, WARN if v.error else DIM)
        if v.help:  # the game's help over it, as a room shows it
            page, key, back, on, palette = v.help
            hud.help_panel(ov, s, tuple(keys.text(line) for line in hud.launcher_help_lines()),
                            tuple(legend.lines(keys)), palette, page, key, back, on)
        ov.upload()


def _header(state: chapters.ChapterState, n: int) -> dict:
    """Level ``n`` of a chapter's header (its name, teaches line and par), as the list
    shows it: read without the map."""
    if state.chapter is None:
        room = chapters.level_room(state, n)
        return {"name": room.name, "teaches": room.teaches, "par": room.par}
    return levelfile.load_header(state.chapter.level_path(n))


#: (file, its version) -> why its map is refused ("": it is not): each file read once
_CHECKED: dict[tuple[str, int], str] = {}


def _map_error(state: chapters.ChapterState, n: int) -> Exception | str | None:
    """Why level ``n`` of a chapter cannot be opened (None: it can), read once per version
    of its file (a launcher opened again reads no level again)."""
    try:
        path = state.chapter.level_path(n) if state.chapter is not None else None
        key = (str(path), os.stat(path).st_mtime_ns) if path is not None else None
    except Exception as e:
        return e
    if key is not None and key in _CHECKED:
        return _CHECKED[key] or None
    try:
        if state.chapter is None:
            chapters.level_room(state, n)
        else:
            state.chapter.load(n)  # the file the line was read from
        error = ""
    except Exception as e:
        error = str(e)
    if key is not None:
        _CHECKED[key] = error
    return error or None


def _broken(label: str, n: int, error, header: str) -> Item:
    """The line of a level whose file is refused: it shows why, and cannot be opened."""
    return Item(f"{label}  (unreadable)", ("broken", n), str(error)[:90], header=header)


def _more(ov, right_mid, direction: int, s: float) -> None:
    """A small drawn arrow and "more" at ``right_mid``: the list goes on up (-1) or down (+1)."""
    x, y = right_mid
    ov.text("more", (x - int(20 * s), y), int(16 * s), DIM, anchor="midright")
    h = int(6 * s)
    cx = x - int(8 * s)
    tip = y + direction * h
    pygame.draw.polygon(ov.surface, DIM, [(cx - h, y - direction * h // 2),
                                          (cx + h, y - direction * h // 2), (cx, tip)])


def _ring(surface, centre, radius: int, colour) -> None:
    """The mark of a room won with hints: a hollow ring (a clean solve has a tick)."""
    pygame.draw.circle(surface, colour, centre, radius, max(2, radius // 3))
