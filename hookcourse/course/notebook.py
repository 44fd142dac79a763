"""What the notebooks import: one public module for the course's checks, labs and helpers.

A notebook writes ``from hookcourse.course.notebook import check_matcher`` and never
needs to know which room of the package a name lives in, so the package can be
rearranged without touching a notebook (``tests/lessons/test_notebook_imports.py``
holds every notebook to this module, ``hookcourse.js`` and ``my_hooks``).

Each name is imported only when a notebook asks for it (PEP 562's module
``__getattr__``): a cell that imports ``quiz`` loads the quiz and nothing else, as it did
when it named the quiz's own module, so no notebook and no browser kernel starts slower.
"""

from __future__ import annotations

import importlib
from typing import Final

# name -> "module:attribute", or "module" for a module a notebook reads as a whole.
PLACES: Final = {
    # the exercises' checks (course/checks/)
    "check_matcher": "hookcourse.course.checks.exercises:check_matcher",
    "check_exit_code": "hookcourse.course.checks.exercises:check_exit_code",
    "check_apply": "hookcourse.course.checks.exercises:check_apply",
    "check_merge": "hookcourse.course.checks.exercises:check_merge",
    "check_stop": "hookcourse.course.checks.exercises:check_stop",
    "check_run_hooks": "hookcourse.course.checks.exercises:check_run_hooks",
    "try_calls": "hookcourse.course.checks.tryout:try_calls",
    "python_re_search": "hookcourse.course.checks.pitfalls:python_re_search",
    "mine": "hookcourse.course.checks.learner_module:mine",
    # the learner's own program (course/grading/)
    "program_tests": "hookcourse.course.grading.my_program:program_tests",
    # labs and questions (course/labs/)
    "quiz": "hookcourse.course.labs.quiz:quiz",
    "parsons": "hookcourse.course.labs.parsons:parsons",
    "Journal": "hookcourse.course.labs.journal:Journal",
    "answer_lab": "hookcourse.course.labs.widgets:answer_lab",
    "decide_lab": "hookcourse.course.labs.widgets:decide_lab",
    "exit_code_lab": "hookcourse.course.labs.widgets:exit_code_lab",
    "matcher_lab": "hookcourse.course.labs.widgets:matcher_lab",
    "event_lab": "hookcourse.course.labs.chapter_views:event_lab",
    "format_lab": "hookcourse.course.labs.chapter_views:format_lab",
    "gate_lab": "hookcourse.course.labs.chapter_views:gate_lab",
    "merge_lab": "hookcourse.course.labs.chapter_views:merge_lab",
    "rules_lab": "hookcourse.course.labs.chapter_views:rules_lab",
    "stop_lab": "hookcourse.course.labs.chapter_views:stop_lab",
    "answer_readout": "hookcourse.course.labs.logic:answer_readout",
    "claude_code_reading": "hookcourse.course.labs.logic:claude_code_reading",
    "run_pre_tool_use_loop": "hookcourse.course.labs.logic:run_pre_tool_use_loop",
    "check_gate": "hookcourse.course.labs.events:check_gate",
    "try_goals": "hookcourse.course.labs.events:try_goals",
    "exercise_goals": "hookcourse.course.labs.events:exercise_goals",
    "step_real_stop_hook": "hookcourse.course.labs.stop_loop:step_real_stop_hook",
    "fire_commands": "hookcourse.course.labs.real_hooks:fire_commands",
    "simple_commands": "hookcourse.course.labs.shell_words:simple_commands",
    "and_goes_on": "hookcourse.course.checks.shell:and_goes_on",
    "run_hook_script": "hookcourse.course.checks.hook_script:run_hook_script",
    "SEED_GUARD": "hookcourse.course.labs.seed_guard:SEED_GUARD",
    "try_guard": "hookcourse.course.labs.guard_runs:try_guard",
    "check_guard": "hookcourse.course.labs.guard:check_guard",
    "bypass_scoreboard": "hookcourse.course.labs.guard:bypass_scoreboard",
    "corpus_preview": "hookcourse.course.labs.guard:corpus_preview",
    # the graded stages' references, read as the course's answer
    "RuleSet": "hookcourse.stages.matcher:RuleSet",
    "explain_match": "hookcourse.stages.matcher_and_dispatch.reference:explain_match",
    "verdicts": "hookcourse.stages.matcher_and_dispatch.verdicts",
    "effects": "hookcourse.stages.decide_and_modify.reference",
    "merge_reference": "hookcourse.stages.merge_decisions.reference",
    "stop_reference": "hookcourse.stages.stop_loop.reference",
    # the Claude Code model (through the engine's front door) and whole sessions
    "CallPlace": "hookcourse.engine.api:CallPlace",
    "check_rule": "hookcourse.engine.api:check_rule",
    "parse_rule": "hookcourse.engine.api:parse_rule",
    "show_transcript": "hookcourse.session.recorded:show_transcript",
    "play": "hookcourse.session.learner:play",
    "three_ways": "hookcourse.session.learner:three_ways",
    "check_loop": "hookcourse.session.learner:check_loop",
}


def __getattr__(name: str) -> object:
    place = PLACES.get(name)
    if place is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, _, attribute = place.partition(":")
    module = importlib.import_module(module_name)
    value = getattr(module, attribute) if attribute else module
    globals()[name] = value  # the next import of it is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(PLACES)


__all__ = sorted(PLACES)
