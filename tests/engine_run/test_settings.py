"""Settings: the three-layer shape, warnings for malformed entries, merging and precedence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookcourse.engine.catalogue import load_catalogue
from hookcourse.engine.settings import (
    Settings,
    SettingsPlaces,
    SettingsSource,
    load_settings,
    merge_layers,
    parse_settings,
)
from hookcourse.errors import InputError

EVENTS = load_catalogue().keys()


def command(text: str, **extra: object) -> dict[str, object]:
    return {"type": "command", "command": text, **extra}


def hooks(
    event: str, *handlers: dict[str, object], matcher: str | None = None
) -> dict[str, object]:
    group: dict[str, object] = {"hooks": list(handlers)}
    if matcher is not None:
        group["matcher"] = matcher
    return {"hooks": {event: [group]}}


def parse(document: object, source: SettingsSource = SettingsSource.PROJECT) -> Settings:
    return merge_layers([parse_settings(json.dumps(document), source, "s.json", EVENTS)])


def test_three_layers_are_read_into_groups_and_handlers() -> None:
    settings = parse(
        hooks(
            "PreToolUse",
            command("${CLAUDE_PROJECT_DIR}/guard.sh", args=[], timeout=5, **{"if": "Bash(git *)"}),
            {"type": "http", "url": "http://127.0.0.1:1/h", "headers": {"A": "$T"}},
            matcher="Bash",
        )
    )
    (group,) = settings.groups_for("PreToolUse")
    assert group.matcher == "Bash"
    guard, http = group.handlers
    assert (guard.command, guard.args, guard.timeout_s) == (
        "${CLAUDE_PROJECT_DIR}/guard.sh",
        (),
        5.0,
    )
    assert str(guard.if_rule) == "Bash(git *)"
    assert (http.type, http.url, http.headers) == ("http", "http://127.0.0.1:1/h", (("A", "$T"),))
    assert settings.warnings == ()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"hooks": {', "not valid JSON"),
        ("[]", "not an object"),
        ('{"hooks": []}', "hooks is an array"),
        ('{"disableAllHooks": "yes"}', "disableAllHooks is the string"),
    ],
)
def test_an_unusable_file_is_an_error_naming_file_and_path(text: str, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_settings(text, SettingsSource.USER, "/home/u/.claude/settings.json", EVENTS)
    line = str(caught.value)
    assert line.startswith("/home/u/.claude/settings.json")
    assert problem in line
    assert "\n" not in line


def test_malformed_handler_is_dropped_with_a_warning_at_its_json_path() -> None:
    document = hooks("PreToolUse", command("ok.sh"), command("slow.sh", timeout="5"), matcher="*")
    settings = parse(document)
    (group,) = settings.groups_for("PreToolUse")
    assert [h.command for h in group.handlers] == ["ok.sh"]
    (warning,) = settings.warnings
    assert "s.json: $.hooks.PreToolUse[0].hooks[1].timeout" in str(warning)
    assert "seconds" in str(warning)


@pytest.mark.parametrize(
    ("handler", "path"),
    [
        ({"type": "command"}, "hooks[0].command"),
        ({"type": "script", "command": "x"}, "hooks[0].type"),
        (command("x", timeout=-1), "hooks[0].timeout"),
        (command("x", args="a b"), "hooks[0].args"),
        (command("x", **{"if": "Bash("}), "hooks[0].if"),
        ({"type": "http", "url": "ftp://x"}, "hooks[0].url"),
        ({"type": "prompt"}, "hooks[0].prompt"),
    ],
)
def test_each_malformed_field_is_named(handler: dict[str, object], path: str) -> None:
    settings = parse(hooks("Stop", handler))
    assert settings.groups_for("Stop")[0].handlers == ()
    assert f"$.hooks.Stop[0].{path}" in str(settings.warnings[0])


@pytest.mark.parametrize(
    ("handler", "path"),
    [
        (command("x", timeout=None), "hooks[0].timeout"),
        (command("x", args=None), "hooks[0].args"),
        (command("x", **{"if": None}), "hooks[0].if"),
        (command("x", **{"async": None}), "hooks[0].async"),
        (command("x", statusMessage=None), "hooks[0].statusMessage"),
    ],
)
def test_a_null_field_is_not_a_left_out_field(handler: dict[str, object], path: str) -> None:
    # Claude Code's settings schema makes these fields optional, not nullable: JSON null
    # fails validation (the handler is dropped) where leaving the key out would not.
    settings = parse(hooks("Stop", handler))
    assert settings.groups_for("Stop")[0].handlers == ()
    assert f"$.hooks.Stop[0].{path}" in str(settings.warnings[0])
    assert "null" in str(settings.warnings[0])


def test_a_null_matcher_drops_the_group_instead_of_matching_everything() -> None:
    settings = parse({"hooks": {"PreToolUse": [{"matcher": None, "hooks": [command("x")]}]}})
    assert settings.groups_for("PreToolUse") == ()
    (warning,) = settings.warnings
    assert "$.hooks.PreToolUse[0].matcher" in str(warning) and "null" in str(warning)


@pytest.mark.parametrize(
    ("text", "path"),
    [('{"hooks": null}', "$.hooks"), ('{"disableAllHooks": null}', "$.disableAllHooks")],
)
def test_a_null_top_level_field_is_an_error(text: str, path: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_settings(text, SettingsSource.USER, "u.json", EVENTS)
    assert f"u.json: {path}" in str(caught.value)
    assert "null" in str(caught.value)


def test_unknown_event_is_a_warning_and_the_rest_of_the_file_stands() -> None:
    document = {
        "hooks": {"PreToolUs": [{"hooks": [command("a")]}], "Stop": [{"hooks": [command("b")]}]}
    }
    settings = parse(document)
    assert [g.event for g in settings.groups] == ["Stop"]
    assert "did you mean PreToolUse?" in str(settings.warnings[0])


def layer(source: SettingsSource, **document: object) -> object:
    body = {**hooks("Stop", command(f"{source}.sh")), **document}
    return parse_settings(json.dumps(body), source, f"{source}.json", EVENTS)


def surviving(*layers: object) -> list[str]:
    settings = merge_layers(list(layers))  # type: ignore[arg-type]
    return [h.command or "" for g in settings.groups for h in g.handlers]


U, P, L, F, M = (
    SettingsSource.USER,
    SettingsSource.PROJECT,
    SettingsSource.LOCAL,
    SettingsSource.FLAG,
    SettingsSource.MANAGED,
)


def test_hooks_from_every_layer_are_merged_not_overridden() -> None:
    assert surviving(layer(U), layer(P), layer(L), layer(F), layer(M)) == [
        "user.sh",
        "project.sh",
        "local.sh",
        "flag.sh",
        "managed.sh",
    ]


def test_disable_all_hooks_follows_settings_precedence() -> None:
    # The project's false outranks the user's true.
    assert surviving(layer(U, disableAllHooks=True), layer(P, disableAllHooks=False)) == [
        "user.sh",
        "project.sh",
    ]
    # The local true outranks the project's false; managed hooks survive it.
    assert surviving(layer(P, disableAllHooks=False), layer(L, disableAllHooks=True), layer(M)) == [
        "managed.sh"
    ]
    # --settings outranks local.
    assert surviving(layer(L, disableAllHooks=True), layer(F, disableAllHooks=False)) == [
        "local.sh",
        "flag.sh",
    ]


def test_only_managed_settings_can_disable_managed_hooks() -> None:
    assert surviving(layer(U), layer(M, disableAllHooks=True)) == []
    assert surviving(layer(U, disableAllHooks=True), layer(M)) == ["managed.sh"]


def test_allow_managed_hooks_only() -> None:
    assert surviving(layer(U), layer(P), layer(M, allowManagedHooksOnly=True)) == ["managed.sh"]
    ignored = layer(P, allowManagedHooksOnly=True)
    assert surviving(layer(U), ignored) == ["user.sh", "project.sh"]
    assert "only in managed settings" in str(ignored.warnings[0])  # type: ignore[attr-defined]


def write(path: Path, document: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def test_load_settings_finds_every_file(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    write(home / ".claude/settings.json", hooks("Stop", command("user")))
    write(project / ".claude/settings.json", hooks("Stop", command("project")))
    write(project / ".claude/settings.local.json", hooks("Stop", command("local")))
    flag = write(tmp_path / "flag.json", hooks("Stop", command("flag")))
    managed = write(tmp_path / "managed-settings.json", hooks("Stop", command("managed")))
    inline = json.dumps(hooks("Stop", command("inline")))
    places = SettingsPlaces(project, home, (str(flag), inline), managed)
    settings = load_settings(places, EVENTS)
    assert [h.command for g in settings.groups for h in g.handlers] == [
        "user",
        "project",
        "local",
        "flag",
        "inline",
        "managed",
    ]
    assert [layer.source for layer in settings.layers] == [U, P, L, F, F, M]
    only_project = SettingsPlaces(project, home, sources=frozenset({P}))
    assert [g.origin.source for g in load_settings(only_project, EVENTS).groups] == [P]


def test_a_named_settings_file_that_is_missing_is_an_error(tmp_path: Path) -> None:
    places = SettingsPlaces(tmp_path, None, (str(tmp_path / "nope.json"),))
    with pytest.raises(InputError, match=r"nope\.json: the flag settings file does not exist"):
        load_settings(places, EVENTS)
