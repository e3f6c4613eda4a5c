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


@pytest.mark.parametrize("path", [HOOK_LEVELS[4], HOOK_LEVELS[7]], ids=lambda p: p.stem)
def test_a_hook_rooms_proofs_are_shared_by_the_two_workers_and_come_out_the_same(path):
    """In a hook room the hook's worker has nothing to compare: it proves ``needs: hook``
    and the ramps beside the par's search; the panel merged from both workers is the one
    proof in one process gives."""
    from anabasis.app.play.proofs import APART, Prover, prove_hook

    text = Draft.of_room(levelfile.parse(path.read_text(), str(path))).text()
    whole = _last(text)
    main = list(prove(text, hook=False))[-1]  # the main worker's part
    assert main.done and not any(s in main.without for s in APART)
    status, length, without, states = prove_hook(text)
    assert (status, length) == ("hook-room", None) and set(without) <= set(APART)
    assert "hook" in without and without["hook"] == whole.without["hook"] == "impossible"
    prover = Prover()
    try:
        prover.start(text)
        merged = prover.wait()
    finally:
        prover.close()
    assert merged.done and merged.status == whole.status and merged.par == whole.par
    assert merged.without == whole.without and merged.needs == whole.needs
    assert merged.lines() == whole.lines()
