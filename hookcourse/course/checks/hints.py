"""Hints: which misreading of JavaScript a case catches (its family), and what to say about it.

A case's family is worked out from the case as its decoder read it (``Decoded``: the
parsed arguments, never parsed again here); the registry names each exercise's
classifier and families, and the hint text for each family is data
(each stage folder's ``hints.json``, keyed by exercise function, then family). Shared by the
notebook checks and ``hookcourse test``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from hookcourse.stages.descriptor import Stage
from hookcourse.stages.registry import STAGES


def stage_hints(stage: Stage) -> dict[str, dict[str, dict[str, str]]]:
    """A stage folder's ``hints.json``: ``notebook`` and ``program`` texts, each keyed by
    exercise function, then case family."""
    text = resources.files(stage.package).joinpath("hints.json").read_text("utf-8")
    loaded: dict[str, dict[str, dict[str, str]]] = json.loads(text)
    return loaded


@functools.cache
def hints() -> dict[str, dict[str, str]]:
    """The notebooks' hint for each exercise's case families (each stage folder's
    ``hints.json``) and for each error a call raises (``data/exercise_hints.json``), read once."""
    text = resources.files("hookcourse").joinpath("data/exercise_hints.json").read_text("utf-8")
    loaded: dict[str, dict[str, str]] = json.loads(text)
    for stage in STAGES:
        loaded.update(stage_hints(stage).get("notebook", {}))
    return loaded


def hint(function: str, case_family: str) -> str | None:
    """The hint for one family of an exercise, or None when there is none."""
    return hints().get(function, {}).get(case_family)
