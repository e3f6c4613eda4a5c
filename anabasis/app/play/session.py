"""What is open: a room with its name and par, and the game being played in it.

:class:`Opened` is a room plus what the UI says about it (where it came
from, its title, its par, the key its best is saved under).  The game
played in it is the engine's :class:`anabasis.engine.rules.Game`: the undo stack
lives in the engine, as states, not inverse moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from anabasis.app.settings.progress import level_key, room_key
from anabasis.engine.world import Room


@dataclass
class Opened:
    """A room the game has open, and how to name and save it."""

    room: Room
    kind: str  #: "level", "room" (a code), "gen", "daily", or "edit" (a play-test)
    title: str
    level: int | None = None  #: the level number, for "level" (in its chapter)
    chapter: int = 1  #: the level's chapter, for "level" (1: the tutorial)
    tier: str | None = None  #: the generator's tier, for "gen" and "daily"
    spec: str | None = None  #: "hard.1x" or "daily.2026-11-29", for made rooms
    day: str | None = None  #: the day (YYYY-MM-DD, UTC) whose room it is, for "daily"
    #: a made room's recipe (``gen.Made.recipe``): shown when asked and after a win, never before
    recipe: str = ""
    _code: str | None = None
    #: the scene Esc goes back to (the editor, for a play-test): its ``returned()`` is called
    back: object | None = None
    #: the launcher's line Esc comes back to, where it is not the kind's own (a made room
    #: opened by its name in the code box: back on that box, not one Enter from a new room)
    back_line: tuple | None = None
    #: a room with no par (a shared code carries none) has it proved off the frame loop
    _par_prover: object | None = field(default=None, repr=False, compare=False)
    _solved_par: int | None = None

    @property
    def par(self) -> int | None:
        """The room's par: from its file, else proved once opened (None until known)."""
        if self.room.par is not None:
            return self.room.par
        prover = self._par_prover
        if prover is not None:
            prover.poll()
            if prover.proofs.status != "proving":
                self._solved_par = prover.proofs.par
                prover.stop()
                self._par_prover = None
        return self._solved_par

    def prove_par(self) -> None:
        """Start proving the par of a room that has none (its shortest solution)."""
        if self.room.par is not None or self._par_prover is not None:
            return
        from anabasis.app.play.proofs import Prover
        from anabasis.formats import levelfile

        try:  # the room as it starts, as a level file with no par to take on trust
            text = levelfile.write(replace(self.room, par=None, needs=()))
        except ValueError:  # a name no header line holds: no par to prove (as a refusal)
            return
        self._par_prover = prover = Prover()
        prover.start(text, full=False)

    @property
    def code(self) -> str | None:
        """The room's code (made on first use), or None for a room no code can hold."""
        if self._code is None:
            from anabasis.formats import codes

            try:
                self._code = codes.encode(self.room)
            except ValueError:  # larger than a code carries
                return None
        return self._code

    @property
    def number(self) -> str:
        """A level's name as a SOURCE names it: ``"3"`` in the tutorial, ``"2.4"`` after."""
        return str(self.level) if self.chapter == 1 else f"{self.chapter}.{self.level}"

    @property
    def key(self) -> str:
        """The name its best is saved under."""
        if self.kind == "level":
            return level_key(self.level, self.chapter)
        return room_key(self.code or self.title)


def open_level(n: int, chapter: int = 1) -> Opened:
    """Level ``n`` of ``chapter`` (``IndexError`` if there is none)."""
    from anabasis.formats import levels

    room = levels.load_level(n) if chapter == 1 else levels.load_from(chapter, n)
    return Opened(room, "level", room.name or f"level {n}", level=n, chapter=chapter)


def open_code(code: str) -> Opened:
    """A room from its code (``codes.CodeError`` if it is bad)."""
    from anabasis.formats import codes

    room = codes.decode(code.strip())
    opened = Opened(room, "room", room.name or "a shared room", _code=code.strip())
    opened.prove_par()  # a code carries no par: the win panel shows the proved one
    return opened


def opened_made(made, kind: str = "gen") -> Opened:
    """A room the generator made (``gen.Made``), as ``"gen"`` or today's room (``"daily"``)."""
    from anabasis import gen

    spec = gen.room_name(made.tier, made.seed)
    day = None
    if kind == "daily":
        s = f"{made.seed:08d}"
        day = f"{s[:4]}-{s[4:6]}-{s[6:]}"
        title = f"today's room · {day}"
    else:
        title = f"{made.tier} room · {spec}"
    return Opened(made.room, kind, title, tier=made.tier, spec=spec, day=day,
                  recipe=getattr(made, "recipe", ""))
