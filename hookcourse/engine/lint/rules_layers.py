"""Rules across every file checked in one run."""

from __future__ import annotations

from collections.abc import Iterator

from hookcourse.errors import json_path

from ..settings import Handler
from .registry import Hit, Scope, Severity, rule
from .sites import FileKind, LayersSite, handlers_in, kind_of


@rule(
    "duplicate-handler",
    Severity.WARNING,
    "§6: the same handler in more than one settings file runs once; 2.1.332 §6.5: the key is "
    "shell, command, args and `if` (http: URL and `if`); async firings are never merged",
    Scope.LAYERS,
    "two handlers Claude Code merges into one (same event, matcher and 2.1.332 dedup key; "
    "a plugin's copy stays separate)",
)
def duplicate_handler(site: LayersSite) -> Iterator[Hit]:
    seen: dict[tuple[object, ...], Handler] = {}
    for layer in site.layers:
        place = site.places.get(layer.file)
        kind = place.kind if place is not None else kind_of(layer.file, layer.source)
        # a plugin's hooks are keyed by its root, so they never merge with another file's
        scope = layer.file if kind is FileKind.PLUGIN else ""
        for group, handler in handlers_in(layer.groups):
            if handler.is_async:
                continue  # async firings are never merged
            key = (scope, group.event, group.matcher, *handler.dedupe_key())
            first = seen.setdefault(key, handler)
            if first is handler:
                continue
            yield Hit(
                handler.origin.path,
                f"the same handler is at {json_path(first.origin.path)} in "
                f"{first.origin.file} (same command, args, shell and if); Claude Code "
                "runs it once",
                "remove one of the two",
                file=layer.file,
            )
