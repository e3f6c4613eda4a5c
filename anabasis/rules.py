"""The rules of motion: steps, the hook, settling, won and lost, undo.

(Placeholder: re-exports the reference engine until the fast engine lands.)
"""

from anabasis.reference import HOOKS, STEPS, Result, settle, start, step  # noqa: F401
