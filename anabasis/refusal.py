"""Refusals: input the game will not take, said in one line.

Every layer raises its own refusal (``LevelError``, ``CodeError``,
``MoveError``, ``GenError``, ...), each a :class:`Refusal`.  Only the command
line prints them (``anabasis: <message>``, exit code 2); the game shows them
in the window.  Nothing below the command line imports it.

Input quoted in a message is cut by :func:`shorten`, the one function for
it: a layer that quotes what it was given cuts it so, and the command
line's printer cuts so any longer piece of its arguments that a message
still holds whole (``anabasis.cli.cut_inputs``), so a 100,000-character
seed is never echoed back in full.
"""

from __future__ import annotations


class Refusal(ValueError):
    """Bad input: a one-line message that says what is wrong and where."""


def shorten(text: str, n: int = 24) -> str:
    """``text`` cut to ``n`` characters with an ellipsis, for quoting input in a message.

    >>> shorten("DCEiWNbKSOyh_wpEkDCEiWNbKSOyh_wpEk")
    'DCEiWNbKSOyh_wpEkDCEiWN…'
    """
    return text if len(text) <= n else text[: n - 1] + "…"
