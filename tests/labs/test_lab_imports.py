"""The checks load no lab code and no engine code.

(That the labs, like all of ``course/``, reach the engine only through
``hookcourse.engine.api`` is ``tests/entry/test_front_door.py``.)
"""

from __future__ import annotations

from tests.support.engine_imports import modules_loaded_after


def test_the_checks_load_no_lab_and_no_engine_code() -> None:
    loaded = modules_loaded_after("import hookcourse.course.checks.exercises")
    assert not [m for m in loaded if m.startswith(("hookcourse.course.labs", "hookcourse.engine"))]
