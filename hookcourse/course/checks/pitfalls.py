"""Where the obvious Python reading of a matcher differs from JavaScript's.

Python's ``re`` is what a learner reaches for first; the labs show its answer beside
JavaScript's, and the hints name the case families where the two part. Stdlib only, so
the checks load it without lab or engine code.
"""

from __future__ import annotations

import re
import warnings
from typing import Final

# Python's \w is Unicode; JavaScript's (without the u flag) is ASCII.
_PYTHON_NAME_LIST: Final = re.compile(r"[\w|]+")


def python_re_search(pattern: str, subject: str) -> bool | str:
    """What Python's ``re.search`` says: True/False, or the text of its error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return re.search(pattern, subject) is not None
    except (re.error, RecursionError, OverflowError, ValueError) as error:
        return f"error: {error}"


def python_thinks_name_list(matcher: str) -> bool:
    """True when ``re.fullmatch(r"[\\w|]+", matcher)`` would call it a name list."""
    return _PYTHON_NAME_LIST.fullmatch(matcher) is not None
