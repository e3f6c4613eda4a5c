"""assets/: the sounds, the icon and the font are shipped, found, and what their scripts make."""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
import io
import wave
from pathlib import Path

import numpy as np
import pygame
import pygame.freetype
import pytest

import anabasis
from anabasis.app.settings.progress import Progress
from anabasis.app.shell import assets, sound

ROOT = Path(anabasis.__file__).parent.parent
ASSETS = ROOT / "assets"


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ASSETS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _frames(data: bytes) -> tuple[int, np.ndarray]:
    with wave.open(io.BytesIO(data)) as f:
        assert (f.getnchannels(), f.getsampwidth()) == (1, 2)
        return f.getframerate(), np.frombuffer(f.readframes(f.getnframes()), "<i2")


def test_the_shipped_sounds_are_what_the_script_makes(tmp_path):
    make = _script("make_sounds")
    assert tuple(make.EFFECTS) == sound.EFFECTS  # the game plays exactly what is made
    for name in sound.EFFECTS:
        rate, shipped = _frames(assets.sound_bytes(name))
        made_rate, made = _frames(make.write(name, tmp_path).read_bytes())
        assert rate == made_rate == make.RATE
        assert len(shipped) == len(made)
        # the same to a least step or two (sin and exp may round apart across machines)
        assert np.max(np.abs(shipped.astype(int) - made.astype(int))) <= 2, name
        # short, not silent, no click at either end
        assert 0.05 < len(shipped) / rate < 1.0, name
        assert np.max(np.abs(shipped)) > 0.5 * 32767, name
        assert abs(int(shipped[-1])) < 200 and abs(int(shipped[0])) < 2000, name


def test_the_effects_differ_from_each_other():
    heard = {}
    for name in sound.EFFECTS:
        rate, x = _frames(assets.sound_bytes(name))
        spectrum = np.abs(np.fft.rfft(x.astype(float), 8192))
        heard[name] = spectrum / np.linalg.norm(spectrum)
    names = list(heard)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert heard[a] @ heard[b] < 0.9, (a, b)  # no two sound alike


def _ui_strings() -> set[str]:
    """Every character in a string literal of the game's UI code."""
    chars = set()
    for path in (ROOT / "anabasis" / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                chars |= set(node.value)
    return chars


def test_the_font_has_every_glyph_the_hud_uses():
    pygame.freetype.init()
    font = pygame.freetype.Font(io.BytesIO(assets.font_bytes()), 20)
    default = pygame.freetype.Font(None, 20)
    wanted = {c for c in _ui_strings() if c.isprintable() and not c.isspace()}
    wanted |= set("←↑→↓⇡⇣▲▼✓─│┌┐└┘├┤")  # arrows, the check mark, box lines
    assert {"·", "…", "✓"} <= wanted
    missing = [c for c, m in zip(sorted(wanted), font.get_metrics("".join(sorted(wanted))),
                                 strict=True) if m is None]
    assert not missing, f"the font has no glyph for {missing}"
    # and pygame's own font lacks some of them: the shipped one is needed
    assert None in default.get_metrics("✓→")
    # the licence is beside it
    assert "Bitstream" in assets.read(assets.FONT_LICENCE).decode()


def test_the_icon_is_what_the_script_draws(tmp_path):
    icon = pygame.image.load(io.BytesIO(assets.read(assets.ICON)))
    drawn = _script("make_icon").draw()
    assert icon.get_size() == drawn.get_size() == (64, 64)
    a = pygame.surfarray.pixels3d(icon).astype(int)
    b = pygame.surfarray.pixels3d(drawn).astype(int)
    assert np.mean(np.abs(a - b)) < 2
    alpha = pygame.surfarray.pixels_alpha(icon)
    assert 0.25 < np.mean(alpha > 0) < 0.9  # a shape on a clear ground


def test_every_asset_is_package_data():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"]["anabasis.assets"] == "assets"
    globs = config["package-data"]["anabasis.assets"]
    shipped = [p.relative_to(ASSETS).as_posix() for p in ASSETS.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts]
    assert {"icon.png", assets.FONT, assets.FONT_LICENCE, "sounds/win.wav"} <= set(shipped)
    for rel in shipped:
        assert any(fnmatch.fnmatch(rel, g) and rel.count("/") == g.count("/")
                   for g in globs), rel


def test_the_volume_and_mute_are_saved_and_bad_ones_refused(tmp_path):
    p = Progress.load(tmp_path)
    assert (p.volume, p.muted) == (0.7, False) and p.keys["mute"] == ["m"]
    p.volume, p.muted = 0.3, True
    p.save()
    back = Progress.load(tmp_path)
    assert (back.volume, back.muted) == (0.3, True)
    for bad in ('{"volume": 2}', '{"volume": true}', '{"muted": "yes"}'):
        (tmp_path / "progress.json").write_text(bad)
        fresh = Progress.load(tmp_path)
        assert fresh.warning and (fresh.volume, fresh.muted) == (0.7, False)


def test_with_no_audio_device_sounds_are_silent_and_say_nothing(monkeypatch, capfd):
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "none")  # no such driver: the mixer cannot open
    quiet = sound.Sounds()
    assert not quiet.available
    for name in sound.EFFECTS:
        quiet.play(name)
    assert list(quiet.played) == list(sound.EFFECTS)
    quiet.close()
    assert capfd.readouterr().err == ""
    with pytest.raises(KeyError):
        quiet.play("boom")


def test_with_a_device_the_effects_load_and_play(monkeypatch):
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    sounds = sound.Sounds(volume=0.5)
    try:
        assert sounds.available and set(sounds._effects) == set(sound.EFFECTS)
        sounds.play("win")
        assert pygame.mixer.get_busy()
        sounds.muted = True
        pygame.mixer.stop()
        sounds.play("step")
        assert not pygame.mixer.get_busy() and sounds.played[-1] == "step"
    finally:
        sounds.close()
    assert not pygame.mixer.get_init()
