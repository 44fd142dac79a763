"""The course's hook functions, judged against JavaScript's answers (the stage pages).

Each raises NotImplementedError until you write it. JSON's null is None; a key the
hook left out is MISSING (JavaScript's undefined), so ``??`` is "is None or MISSING".
The regex branch of match_hook is an ECMAScript RegExp: Python's re differs (its \\w
is Unicode, its $ matches before a final newline), so use an ECMAScript engine such
as the regress package for it.
"""

MISSING = object()


@STAGES@
