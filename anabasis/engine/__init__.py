"""The engine: the room, its rules and the solver, in pure Python (standard library only).

``world`` (the room and its state), ``cells`` (the one table of cell codes),
``moves`` (the move names and what a move comes to), ``rules`` (the rules,
fast), ``reference`` (a plain twin of the rules the tests hold them to),
``solver`` (exact search), ``proofs`` (what a level's header claims, asked
of the solver: the one home for proofs).  Nothing here imports anything
above it: no formats, picture, game or command line.
"""
