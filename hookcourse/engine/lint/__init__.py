"""The lint rules behind ``hookcourse validate`` (and the warnings of ``hookcourse fire``).

Each rule is one small function in a ``rules_*`` module, registered with its id, severity,
reference and scope (``registry.rule``). ``lint_layers`` hands every rule each site of its
scope: documents, matcher groups, handlers, then all layers together. Pure: the only
contact with files is the ``probe`` a caller may put in a ``FilePlace``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hookcourse.errors import InputError
from hookcourse.js.values import JSValue

from ..catalogue import load_catalogue
from ..settings import SettingsLayer
from . import (
    rules_command,
    rules_document,
    rules_handler,
    rules_layers,
    rules_matcher,
    rules_release,
    rules_script,
)
from .registry import RULES, Finding, Rule, Scope, Severity, choose, run_rules
from .sites import (
    DocumentSite,
    FileFacts,
    FileKind,
    FilePlace,
    FileSite,
    GroupSite,
    HandlerSite,
    LayersSite,
    entries_in,
    kind_of,
)

__all__ = [
    "RULES",
    "FileFacts",
    "FileKind",
    "FilePlace",
    "Finding",
    "Rule",
    "Severity",
    "choose",
    "kind_of",
    "lint_file_problem",
    "lint_layers",
    "lint_unusable_document",
]
_RULE_MODULES = (
    rules_document,
    rules_matcher,
    rules_handler,
    rules_command,
    rules_script,
    rules_layers,
    rules_release,
)
"""Imported for their registrations, in the order of the docs' rule table."""


def lint_layers(
    layers: Sequence[SettingsLayer],
    places: Mapping[str, FilePlace] | None = None,
    rules: Mapping[str, Rule] | None = None,
) -> list[Finding]:
    """Every finding of the chosen rules (default: all) in these layers, file by file, then
    across them. ``places`` maps a layer's file to where it sits; a file without one is
    judged by its source and name, with no file checks."""
    chosen = RULES if rules is None else rules
    known = places or {}
    catalogue = load_catalogue()
    findings: list[Finding] = []
    for layer in layers:
        place = known.get(layer.file) or FilePlace(kind_of(layer.file, layer.source))
        document = DocumentSite(layer.file, layer.document, layer, None, place, catalogue)
        findings.extend(run_rules(Scope.DOCUMENT, document, layer.file, chosen))
        for entry in entries_in(layer.groups, layer.document):
            group, handler, spec = entry.group, entry.handler, catalogue[entry.group.event]
            if handler is None:
                group_site = GroupSite(layer.file, group, spec, entry.raw, place)
                findings.extend(run_rules(Scope.GROUP, group_site, layer.file, chosen))
            else:
                site = HandlerSite(
                    layer.file, handler, group, spec, entry.raw, place, layer.document
                )
                findings.extend(run_rules(Scope.HANDLER, site, layer.file, chosen))
    everything = LayersSite(layers, known)
    findings.extend(run_rules(Scope.LAYERS, everything, "", chosen))
    return findings


def lint_file_problem(
    file: str, rule_id: str, problem: InputError, rules: Mapping[str, Rule] | None = None
) -> list[Finding]:
    """The finding for a file that could not be read or parsed (rule ``rule_id``)."""
    site = FileSite(file, rule_id, problem)
    return list(run_rules(Scope.FILE, site, file, RULES if rules is None else rules))


def lint_unusable_document(
    file: str,
    document: JSValue,
    problem: InputError,
    place: FilePlace,
    rules: Mapping[str, Rule] | None = None,
) -> list[Finding]:
    """The findings for a parsed document the settings reader refused as a whole."""
    site = DocumentSite(file, document, None, problem, place, load_catalogue())
    return list(run_rules(Scope.DOCUMENT, site, file, RULES if rules is None else rules))
