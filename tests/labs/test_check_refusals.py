"""What a notebook check refuses to run, and what a learner's function cannot do to it.

A wrapper around the course's own function is refused however it reaches it; a value that
is not a function, or one with the wrong parameters, is named as such; a function that
exits, raises anything or never returns is a failing case, never the end of the kernel.
"""

from __future__ import annotations

import functools
import json
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import hookcourse.solutions
import hookcourse.stages.matcher_and_dispatch.reference
from hookcourse.course.checks import calling
from hookcourse.course.checks.authorship import handed_to
from hookcourse.course.checks.exercises import (
    check_apply,
    check_exit_code,
    check_matcher,
    check_merge,
)
from hookcourse.course.checks.hints import hints
from hookcourse.stages.matcher_and_dispatch import reference as matcher_module
from tests.support.paths import ROOT

STAGE_MATCH = "hookcourse.stages.matcher_and_dispatch.reference.match_hook"
SOLUTION_MATCH = "hookcourse.stages.matcher_and_dispatch.solution.match_hook"

# -- wrappers: each hands the work to the course by another road ---------------------------------


def through_a_helper(matcher: Any, tool_name: Any) -> bool:
    return notebook_helper(matcher, tool_name)


def notebook_helper(matcher: Any, tool_name: Any) -> bool:
    return matcher_module.match_hook(matcher, tool_name)


def through_an_inner_function(matcher: Any, tool_name: Any) -> bool:
    def inner() -> bool:
        return hookcourse.stages.matcher_and_dispatch.reference.match_hook(matcher, tool_name)

    return inner()


def through_a_closure() -> Callable[[Any, Any], bool]:
    reference = hookcourse.solutions.match_hook
    return lambda matcher, tool_name: reference(matcher, tool_name)


def through_a_default(matcher: Any, tool_name: Any, decide: Any = matcher_module.match_hook) -> Any:
    return decide(matcher, tool_name)


def through_an_import(matcher: Any, tool_name: Any) -> bool:
    from hookcourse.stages.matcher_and_dispatch.reference import match_hook

    return match_hook(matcher, tool_name)


def through_getattr(matcher: Any, tool_name: Any) -> Any:
    return getattr(matcher_module, "match_hook")(matcher, tool_name)  # noqa: B009


class Delegate:
    def __call__(self, matcher: Any, tool_name: Any) -> bool:
        return matcher_module.match_hook(matcher, tool_name)


WRAPPERS: list[tuple[str, Callable[..., object], str]] = [
    (
        "lambda through a module attribute",
        lambda m, t: hookcourse.stages.matcher_and_dispatch.reference.match_hook(m, t),
        STAGE_MATCH,
    ),
    (
        "a lambda around the teacher's",
        lambda m, t: hookcourse.solutions.match_hook(m, t),
        SOLUTION_MATCH,
    ),
    ("a helper of the notebook", through_a_helper, STAGE_MATCH),
    ("an inner function", through_an_inner_function, STAGE_MATCH),
    ("a closure cell", through_a_closure(), SOLUTION_MATCH),
    ("a default", through_a_default, STAGE_MATCH),
    ("an import in its body", through_an_import, STAGE_MATCH),
    ("getattr by name", through_getattr, STAGE_MATCH),
    ("functools.partial", functools.partial(hookcourse.solutions.match_hook), SOLUTION_MATCH),
    ("an object with __call__", Delegate(), STAGE_MATCH),
]


@pytest.mark.parametrize(("road", "wrapper", "dotted"), WRAPPERS, ids=[w[0] for w in WRAPPERS])
def test_a_wrapper_around_the_course_is_refused(
    road: str, wrapper: Callable[..., object], dotted: str
) -> None:
    result = check_matcher(wrapper)
    assert not result.passed
    assert result.outcomes == ()  # refused before any case runs
    assert result.text() == (
        f"match_hook: your function hands the work to the course's own {dotted}; "
        "write it yourself, then run your cell and this check again."
    )


def test_the_teachers_solution_passed_directly_still_passes() -> None:
    assert check_matcher(hookcourse.solutions.match_hook).passed


def exercise_cells() -> Iterator[tuple[str, str]]:
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if "exercise" in cell.get("metadata", {}).get("tags", []):
                yield notebook.stem, "".join(cell["source"])


def helpers_used(source: str) -> str:
    """A function that calls every name the exercise cell imports from the package."""
    imported = [
        name.strip()
        for line in source.splitlines()
        if line.startswith("from hookcourse.")
        for name in line.split(" import ", 1)[1].split(",")
    ]
    return f"\n\ndef uses_helpers(*arguments):\n    return [{', '.join(imported)}]\n"


@pytest.mark.parametrize(("notebook", "source"), list(exercise_cells()))
def test_the_helpers_the_notebooks_hand_out_are_not_flagged(notebook: str, source: str) -> None:
    scope: dict[str, object] = {"__name__": "__main__"}
    exec(compile(source + helpers_used(source), f"<{notebook}>", "exec"), scope)
    assert handed_to(scope["uses_helpers"]) is None


# -- the wrong thing passed, or the wrong shape ------------------------------------------------


@pytest.mark.parametrize("value", [None, 3, "match_hook"])
def test_a_value_that_is_not_a_function_names_the_check_called(value: object) -> None:
    result = check_matcher(value)  # type: ignore[arg-type]
    assert result.text() == (
        f"check_matcher takes your function, e.g. check_matcher(match_hook); got {value!r}"
    )
    assert "fixture" not in result.text() and not result.passed
    assert (
        check_merge(None)
        .text()
        .startswith(  # type: ignore[arg-type]
            "check_merge takes your function, e.g. check_merge(merge_pre_tool_use); got None"
        )
    )


def test_the_wrong_number_of_parameters_is_said_before_any_case() -> None:
    result = check_matcher(lambda: 1)
    assert result.outcomes == () and not result.passed
    assert result.text() == (
        "match_hook: your function takes the wrong number of arguments: the check calls it "
        "with 2 (matcher, tool_name), and yours is defined as (). Make its first line "
        "def match_hook(matcher, tool_name): then run your cell and this check again."
    )
    assert "wrong number of arguments" in check_apply(lambda a, b, c: 1).text()


def test_parameters_that_can_take_the_call_and_builtins_still_run() -> None:
    assert check_matcher(lambda *arguments: True).outcomes
    assert check_matcher(lambda m, t, extra=None: True).outcomes
    assert check_exit_code(max).outcomes  # no signature Python can read: the cases tell


# -- what the function does while it runs ------------------------------------------------------


def test_sys_exit_is_a_failing_case_with_its_hint() -> None:
    result = check_matcher(lambda m, t: sys.exit(3))
    assert not result.passed and result.outcomes
    failure = result.first_failure
    assert failure is not None and failure.got == "raised SystemExit: 3"
    assert result.hint() == hints()["raised"]["SystemExit"].format(name="match_hook")


def test_any_base_exception_is_a_failing_case_but_an_interrupt_goes_through() -> None:
    def raises_generator_exit(m: object, t: object) -> bool:
        raise GeneratorExit("closed")

    assert check_matcher(raises_generator_exit).first_failure.got == (  # type: ignore[union-attr]
        "raised GeneratorExit: closed"
    )

    def interrupted(m: object, t: object) -> bool:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check_matcher(interrupted)


def loops_forever(matcher: Any, tool_name: Any) -> bool:
    while True:
        pass


def loops_catching_everything(matcher: Any, tool_name: Any) -> bool:
    while True:
        try:
            matcher + 1
        except Exception:
            continue


@pytest.fixture
def short_limit(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(calling, "LIMIT_S", 0.2)
    return 0.2


def learner_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "hookcourse-learner-call"]


@pytest.mark.parametrize("endless", [loops_forever, loops_catching_everything])
def test_an_endless_loop_stops_the_check_and_is_stopped(
    endless: Callable[..., bool], short_limit: float
) -> None:
    result = check_matcher(endless)
    assert not result.passed
    assert len(result.outcomes) == 1  # the check goes no further than the hung case
    hung = result.outcomes[0]
    assert result.text() == (
        f"match_hook: stopped. Your function did not return within 0.2 s on "
        f"{hung.case.where}: {hung.call('match_hook')}. Look for a loop that never ends. "
        "The check stopped that call."
    )
    assert learner_threads() == []  # it really ended


def test_a_call_stuck_in_c_is_reported_as_still_running(short_limit: float) -> None:
    release = threading.Event()
    try:
        result = check_matcher(lambda m, t: release.wait())
        assert "still running in the background" in result.text()
        assert "interrupt the kernel, or restart it" in result.text()
    finally:
        release.set()
    for thread in learner_threads():
        thread.join(5)
    assert learner_threads() == []
