"""The editor and the hook: the ``hook:`` switch, proofs with the hook a move, the panel's words."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from conftest import DT

import anabasis
from anabasis.app.editor.draft import Draft
from anabasis.app.play.proofs import prove
from anabasis.engine import solver
from anabasis.formats import levelfile

HOOK_DIR = Path(anabasis.__file__).parent.parent / "levels" / "04-hook"
HOOK_LEVELS = sorted(p for p in HOOK_DIR.glob("*.txt") if p.name != "chapter.txt")

#: A corridor: six steps to the goal, or one hook to the block beyond it.
CORRIDOR = "######## ########\n\n######## @.....*#\n"


def _last(text: str):
    return list(prove(text))[-1]


@pytest.mark.parametrize("path", HOOK_LEVELS, ids=lambda p: p.stem)
def test_a_hook_levels_draft_is_proved_with_the_hook_as_a_move(path):
    room = levelfile.parse(path.read_text(), str(path))
    draft = Draft.of_room(room)
    assert draft.hook
    proofs = _last(draft.text())
    assert proofs.status == "solved" and proofs.par == room.par
    assert proofs.needs == room.needs and "hook" in proofs.needs
    assert proofs.without["hook"] == "impossible"
    assert proofs.hook_room and ("dim", "a hook room: the hook is a move, and par counts it") \
        in proofs.lines()
    # saved, it reads back as the hook room it is, with its proved header
    again = levelfile.parse(draft.text(proofs.par, proofs.needs))
    assert again.hook and again.par == room.par and again.needs == room.needs
    assert again.cells == room.cells and again.start == room.start


def test_the_panel_says_what_the_hook_saving_moves_means_in_a_plain_room():
    proofs = _last(Draft.of_room(levelfile.parse(CORRIDOR)).text())
    assert not proofs.hook_room and proofs.without["hook"] == "n/a"
    assert proofs.par == 6 and proofs.hook == 1 and proofs.hook_saves == 5
    lines = proofs.lines()
    at = lines.index(("warn", "the hook saves 5 moves"))
    assert lines[at + 1] == ("dim", "were the hook a move here (a hook room, O), par would be "
                                    "1, not 6: in this room it is not one")


def test_the_hook_switch_in_the_editor(make_app):
    from anabasis.app.editor.scene import Editor, EditTarget

    app = make_app()
    app.edit(EditTarget(Draft.of_room(levelfile.parse(CORRIDOR)), None))
    app.tick(DT)
    ed = app.scene
    assert isinstance(ed, Editor) and not ed.draft.hook

    def proved():
        ed.prover.wait()
        app.tick(DT)
        assert ed.proofs.done
        return ed.proofs

    assert proved().par == 6 and ed.proofs.hook_saves == 5
    for key, hook, par in ((pygame.K_o, True, 1), (pygame.K_o, False, 6)):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="k",
                                             scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="k",
                                             scancode=0))
        app.tick(DT)
        assert ed.draft.hook is hook and ("hook: yes" in ed.draft.text()) is hook
        proofs = proved()
        assert proofs.par == par == len(solver.solve(levelfile.parse(ed.draft.text())).moves)
        assert proofs.hook_room is hook
    # the switch is one edit: undo takes it back
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=0, unicode="z",
                                         scancode=0))
    app.tick(DT)
    assert ed.draft.hook
    # and a play-test of the hook room has the hook
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p",
                                         scancode=0))
    app.tick(DT)
    assert app.scene.game.hook
