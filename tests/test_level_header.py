"""One writer of a level file's header (``levelfile.header``): the file format's ``write``
and the editor's draft both use it, and a draft saved as the editor saves it (its text,
written atomically) and opened again as the editor opens a saved room keeps every header.
"""

from __future__ import annotations

import itertools

import pytest

from anabasis.app.editor.draft import Draft
from anabasis.app.editor.scene import open_saved
from anabasis.formats import levelfile
from anabasis.formats.files import atomic_write

#: A room that can be a hook room and wrap in w: two slices, a floor under the walk.
MAP = "#### ####\n\n##.# @.*.\n"

#: Every header a level file can have, each away from its default somewhere in the cases.
HEADERS = [
    dict(name=name, teaches=teaches, hook=hook, wrap=wrap, view=view)
    for (name, teaches), hook, wrap, view in itertools.product(
        [("", ""), ("a walk", "the goal is one step on, past a gap")],
        [False, True], [False, True], ["stand", "w-up", "both"])
]
PROOFS = [(None, ()), (3, ("gravity-w",)), (3, ("gravity-w", "wrap"))]


def _draft(**header) -> Draft:
    room = levelfile.parse("view: stand\n\n" + MAP, "walk.txt")
    return Draft.of_room(room).with_header(**header)


@pytest.mark.parametrize("header", HEADERS)
@pytest.mark.parametrize("par,needs", PROOFS)
def test_a_draft_saved_and_opened_again_keeps_every_header(tmp_path, header, par, needs):
    if "wrap" in needs and not header["wrap"]:
        needs = tuple(n for n in needs if n != "wrap")  # a room that does not wrap needs no wrap
    draft = _draft(**header)
    path = tmp_path / "walk.txt"
    atomic_write(path, draft.text(par, needs))  # as the editor's save writes it
    room = levelfile.load(path)
    kept = {**header, "name": header["name"] or "walk"}  # no name: the file's, as ever
    for key, value in kept.items():
        assert getattr(room, key) == value, key
    assert room.par == par and room.needs == needs
    again = open_saved(path).draft  # as the editor opens a saved room
    assert again == draft.with_header(name=kept["name"])
    assert levelfile.write(room) == again.text(par, needs)
    if header["name"]:
        assert path.read_text() == levelfile.write(room)  # written back word for word


def test_the_header_writer_writes_only_what_is_there_in_the_formats_order():
    assert levelfile.header() == "wrap: no\nview: stand\n"
    text = levelfile.header(name="n", teaches="t", par=7, needs=("hook", "gravity-w"),
                            hook=True, wrap=True, view="both")
    keys = [line.split(":")[0] for line in text.splitlines()]
    assert keys == list(levelfile.KEYS)
    assert "needs: gravity-w, hook\n" in text  # the rule book's order, whatever was given
    assert Draft.new().text().startswith(levelfile.header() + "\n")
