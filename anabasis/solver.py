"""The exact solver. (Placeholder: the reference solver until the fast one lands.)"""

from anabasis.reference import Solution, moves_for, solve  # noqa: F401
