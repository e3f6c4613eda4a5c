"""Rooms the tests draw that no level lays out any more.

Level 2 ("slip") was laid out until stop 49 with its one-high wall between the eye and
the pawn: the start the window round the pawn, its lid and the wall's bevel were made
for and are tested on.  Blind players of every round read that wall as the floor under
the pawn, or the pawn as inside it, so the level now stands the wall beside the pawn
(``levels/02-slip.txt``); the room is kept here for the tests of the window.
"""

from __future__ import annotations

from anabasis.formats import levelfile

WALL_BEFORE_PAWN = """\
name: slip
teaches: where the block kata of you ends, you slip a slice
par: 6
needs: gravity-w
wrap: no
view: stand

### ###
### ###
### ###

### ###
### ###
### *..

### @..
### ##.
### ##.
"""


def wall_before_pawn():
    """Level 2 as it was: a wall one high, two by two, in front of the pawn (toward the
    eye), the goal one slice kata of the start two rows on; solved by ``RRDDLL``."""
    return levelfile.parse(WALL_BEFORE_PAWN, "<wall before the pawn>")


def open_wall_before_pawn():
    """:func:`wall_before_pawn` opened as the tutorial's level 2 is (its badges)."""
    from anabasis.app.play.session import Opened

    room = wall_before_pawn()
    return Opened(room, "level", room.name, level=2)
