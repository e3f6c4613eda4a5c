"""Synthesise the game's sound effects with numpy and write them as WAV files.

Run it after changing a sound (from the project's root)::

    python assets/make_sounds.py            # writes assets/sounds/*.wav
    python assets/make_sounds.py OUT_DIR    # or somewhere else

Every effect is a few lines of arithmetic on a time axis: sine tones with
a pitch glide, noise through a one-pole filter, and an envelope.  The noise
comes from an integer hash, not from a random generator, so the same
script writes the same samples on every machine and numpy version (the
tests regenerate the files and compare them with the shipped ones).

The effects are 16-bit mono at :data:`RATE`; each stays under a second,
and under a quarter of a second where it plays on every step.
"""

from __future__ import annotations

import sys
import wave
from pathlib import Path

import numpy as np

RATE = 22050  #: samples per second: plenty for short effects, half the size of 44.1 kHz
PEAK = 0.7  #: every effect is normalised to this part of full scale, so none is louder


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(seconds * RATE)) / RATE


def _noise(n: int, seed: int) -> np.ndarray:
    """``n`` samples of white noise in -1..1, the same on every machine (an integer hash)."""
    x = (np.arange(n, dtype=np.uint64) + np.uint64(seed) * np.uint64(0x9E3779B9)) \
        & np.uint64(0xFFFFFFFF)
    x ^= x >> np.uint64(16)
    x = (x * np.uint64(0x7FEB352D)) & np.uint64(0xFFFFFFFF)
    x ^= x >> np.uint64(15)
    x = (x * np.uint64(0x846CA68B)) & np.uint64(0xFFFFFFFF)
    x ^= x >> np.uint64(16)
    return x.astype(np.float64) / 2**31 - 1.0


def _lowpass(x: np.ndarray, cutoff: float) -> np.ndarray:
    """A one-pole low-pass filter at ``cutoff`` Hz (soft noise: a thud, a scrape)."""
    a = np.exp(-2 * np.pi * cutoff / RATE)
    out = np.empty_like(x)
    acc = 0.0
    for i, v in enumerate(x):  # short signals: a plain loop is fast enough
        acc = (1 - a) * v + a * acc
        out[i] = acc
    return out


def _glide(t: np.ndarray, f0: float, f1: float) -> np.ndarray:
    """A sine whose pitch slides exponentially from ``f0`` to ``f1`` Hz over ``t``."""
    length = t[-1] if len(t) > 1 else 1.0
    freq = f0 * (f1 / f0) ** (t / length)
    return np.sin(2 * np.pi * np.cumsum(freq) / RATE)


def _env(t: np.ndarray, attack: float, decay: float) -> np.ndarray:
    """A fast rise over ``attack`` s, then an exponential fall with time constant ``decay`` s."""
    rise = np.clip(t / attack, 0, 1) if attack > 0 else np.ones_like(t)
    return rise * np.exp(-np.maximum(t - attack, 0) / decay)


def _fade(x: np.ndarray, seconds: float = 0.01) -> np.ndarray:
    """Fade the last ``seconds`` to zero, so no effect ends in a click."""
    n = min(len(x), int(seconds * RATE))
    x = x.copy()
    x[len(x) - n:] *= np.linspace(1, 0, n)
    return x


def _tone_and_noise(seconds: float, glide: tuple[float, float], tone_env: tuple[float, float],
                    seed: int, cutoff: float, noise_env: tuple[float, float],
                    gain: float) -> np.ndarray:
    """A gliding tone under its envelope, plus low-passed noise under its own (``gain`` x):
    the shape of a knock, a thunk, a thud and a whoosh alike."""
    t = _t(seconds)
    tone = _glide(t, *glide) * _env(t, *tone_env)
    return tone + _lowpass(_noise(len(t), seed), cutoff) * _env(t, *noise_env) * gain


def step() -> np.ndarray:
    """A soft footfall: a low knock and a breath of filtered noise."""
    return _tone_and_noise(0.09, (220, 140), (0.002, 0.018), 1, 1800, (0.001, 0.012), 2.5)


def bump() -> np.ndarray:
    """A dull thunk against something that does not give."""
    return _tone_and_noise(0.16, (130, 70), (0.002, 0.045), 2, 900, (0.001, 0.02), 3)


def push() -> np.ndarray:
    """A crate scraping one cell along the floor."""
    t = _t(0.22)
    grit = _lowpass(_noise(len(t), 3), 700) * 4
    wobble = 0.7 + 0.3 * np.sin(2 * np.pi * 23 * t)
    swell = np.sin(np.pi * np.clip(t / t[-1], 0, 1)) ** 0.6
    return grit * wobble * swell + 0.3 * _glide(t, 95, 85) * swell


def land() -> np.ndarray:
    """A crate landing in a gap: a heavy low thud with a rattle."""
    return _tone_and_noise(0.32, (90, 45), (0.003, 0.08), 4, 1200, (0.001, 0.04), 3)


def slip() -> np.ndarray:
    """Slipping a slice kata: a soft whoosh gliding down."""
    return _tone_and_noise(0.3, (620, 260), (0.02, 0.12), 5, 2500, (0.05, 0.08), 1.2)


def ramp() -> np.ndarray:
    """A ramp carrying you ana: a bright glide rising, with a fifth above it."""
    t = _t(0.32)
    env = _env(t, 0.03, 0.13)
    return (_glide(t, 330, 660) + 0.4 * _glide(t, 495, 990)) * env


def fall() -> np.ndarray:
    """Falling out of the world: a long sinking glide that wavers and fades."""
    t = _t(0.8)
    waver = 1 + 0.25 * np.sin(2 * np.pi * 7 * t)
    return _glide(t, 520, 70) * waver * _env(t, 0.02, 0.3)


def undo() -> np.ndarray:
    """Undo: two quick notes stepping back down."""
    out = []
    for f in (660, 495):
        t = _t(0.07)
        out.append(np.sin(2 * np.pi * f * t) * _env(t, 0.003, 0.025))
    return np.concatenate(out)


def restart() -> np.ndarray:
    """Restart: a quick rewind, a glide sweeping down and up."""
    t = _t(0.26)
    f = 440 * 2 ** (-np.sin(np.pi * t / t[-1]))  # down an octave and back
    tone = np.sin(2 * np.pi * np.cumsum(f) / RATE)
    return tone * _env(t, 0.01, 0.12)


def win() -> np.ndarray:
    """The win: a rising major arpeggio, bell-like, ringing out."""
    notes = (523.25, 659.25, 783.99, 1046.5)
    gap = 0.09
    t = _t(gap * len(notes) + 0.6)
    out = np.zeros_like(t)
    for i, f in enumerate(notes):
        u = np.maximum(t - i * gap, 0)
        on = t >= i * gap
        bell = np.sin(2 * np.pi * f * u) + 0.3 * np.sin(2 * np.pi * 2 * f * u)
        out += on * bell * _env(u, 0.004, 0.25 if i < len(notes) - 1 else 0.4)
    return out


def throw() -> np.ndarray:
    """The hook thrown: a quick airy zip, rising, with a thin whistle over it."""
    t = _t(0.16)
    air = _lowpass(_noise(len(t), 7), 3500) * 2.5 * _env(t, 0.01, 0.05)
    return air + 0.5 * _glide(t, 900, 1900) * _env(t, 0.005, 0.06)


def catch() -> np.ndarray:
    """The hook caught: a bright metal clink, two partials, then a taut low pull."""
    t = _t(0.3)
    clink = (np.sin(2 * np.pi * 1760 * t) + 0.6 * np.sin(2 * np.pi * 2637 * t)) \
        * _env(t, 0.001, 0.03)
    pull = 0.5 * _glide(t, 180, 120) * _env(t, 0.03, 0.1)
    return clink + pull


def miss() -> np.ndarray:
    """The hook back empty: a slack wobble falling, a rattle of chain."""
    t = _t(0.34)
    wobble = _glide(t, 700, 300) * (1 + 0.4 * np.sin(2 * np.pi * 13 * t)) * _env(t, 0.01, 0.1)
    rattle = _lowpass(_noise(len(t), 8), 1600) * 1.5 * _env(t, 0.08, 0.06)
    return wobble + rattle


#: Every effect, by the name the game plays it under.
EFFECTS = {f.__name__: f for f in (step, bump, push, land, slip, ramp, fall, undo, restart, win,
                                        throw, catch, miss)}


def samples(name: str) -> np.ndarray:
    """The effect ``name`` as 16-bit samples, normalised and faded out."""
    x = _fade(EFFECTS[name]())
    x = x / np.max(np.abs(x)) * PEAK
    return np.round(x * 32767).astype("<i2")


def write(name: str, folder: Path) -> Path:
    """Write ``name``.wav into ``folder``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.wav"
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(samples(name).tobytes())
    return path


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).parent / "sounds"
    for name in EFFECTS:
        print(write(name, folder))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
