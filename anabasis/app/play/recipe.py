"""A made room's recipe in the window: what the room is made of, when asked and after a win.

The generator writes it (``gen.Made.recipe``: the climb, what its crates
are for, its ledges and dead ends, every claim true of the room, see
``docs/gen.md``).  The subtitle under the title names the room and spoils
nothing; the recipe gives the puzzle away, so it is never shown unasked:
the recipe key shows it as the message of the moment (again: hides it),
and the win panel shows it under the moves.  A room opened from its code
has none (a code carries no name, and so no recipe).  No pygame here.
"""

from __future__ import annotations

#: How long the recipe stays up when asked for (seconds; the key again hides it).
RECIPE_S = 15.0
#: What the key says in a room that has no recipe.
NO_RECIPE = "only a room made to order has a recipe"


def text(opened) -> str:
    """The recipe as the window words it, or "" for a room that has none."""
    return f"the recipe: {opened.recipe}" if getattr(opened, "recipe", "") else ""


def ask(play) -> None:
    """The recipe key: show the room's recipe (or hide it, if it is showing)."""
    words = text(play.opened)
    if not words:
        play.say(NO_RECIPE, "dim")
    elif play.message == words and play.message_left > 0:
        play.message_left = 0.0
    else:
        play.say(words, "info", RECIPE_S)
