"""Session scripts: anything that cannot be run is one clear line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookcourse.errors import InputError
from hookcourse.session.script import Layout, load, substitute

GOOD = {"prompt": "go", "turns": [{"text": "hi"}], "expect": [{"ends": "completed"}]}


def _write(tmp_path: Path, content: bytes | str) -> Path:
    path = tmp_path / "s.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("{", "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        ("[]", "is not an object"),
        (json.dumps({**GOOD, "turn": []}), "unknown key 'turn'"),
        (json.dumps({**GOOD, "turns": [{"tools": [{"input": {}}]}]}), "needs a name"),
        (json.dumps({**GOOD, "turns": [{"text": "x", "if": "blocked"}]}), "unknown condition"),
        (json.dumps({**GOOD, "expect": [{"sees": 3}]}), "wrong type"),
        (json.dumps({**GOOD, "expect": [{"sees": "a", "denied": "b"}]}), "exactly one of"),
        (json.dumps({**GOOD, "expect": ["denied git push"]}), "is not an object"),
        (json.dumps({**GOOD, "files": {"../outside": "x"}}), "inside the project"),
        (json.dumps({**GOOD, "hooks": {"a/b": "exit 0"}}), "a hook name is letters"),
        (json.dumps({**GOOD, "settings": {"global": {}}}), "unknown key 'global'"),
        (json.dumps({**GOOD, "prompts": ["a", "b"]}), "both prompt and prompts"),
        (json.dumps({"prompts": []}), "not a non-empty list"),
        (json.dumps({"prompts": "go"}), "not a non-empty list"),
        (json.dumps({"prompts": ["go", 3]}), "$.prompts[1]: a prompt is not a string"),
        (json.dumps({"prompts": ["go", "a\u0000b"]}), "$.prompts[1]: the prompt holds a NUL"),
        (json.dumps({"prompts": ["go", " "]}), "$.prompts[1]: the prompt is empty"),
        (json.dumps({**GOOD, "expect": [{"ends": "completed", "prompt": "2"}]}), "not a number"),
        (
            json.dumps({**GOOD, "prompt": "a \ud800 b"}),
            "$.prompt: the prompt holds a lone surrogate",
        ),
        (json.dumps({**GOOD, "env": {"A=B": "1"}}), "not a variable name"),
        (json.dumps({**GOOD, "env": {"A": ["1"]}}), "a variable's value is a string"),
        (json.dumps({**GOOD, "env": {"A": "x\u0000"}}), "$.env.A: the value holds a NUL"),
        (json.dumps({**GOOD, "env": []}), "$.env is not an object"),
    ],
)
def test_a_bad_script_is_one_line_naming_the_place(tmp_path: Path, content: str, said: str) -> None:
    with pytest.raises(InputError) as raised:
        load(_write(tmp_path, content))
    line = str(raised.value)
    assert said in line
    assert "\n" not in line
    assert str(tmp_path / "s.json") in line


def test_unreadable_and_huge_scripts(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        load(tmp_path / "missing.json")
    with pytest.raises(InputError, match="larger than 4 MiB"):
        load(_write(tmp_path, b" " * (4 * 1024 * 1024 + 1)))


def test_a_good_script_loads_with_its_file_name(tmp_path: Path) -> None:
    script = load(_write(tmp_path, json.dumps(GOOD)))
    assert (script.name, script.prompt, script.expectations) == ("s", "go", GOOD["expect"])


def test_several_prompts_are_submitted_in_order(tmp_path: Path) -> None:
    script = load(_write(tmp_path, json.dumps({"prompts": ["one", "two"], "turns": []})))
    assert (script.prompts, script.prompt) == (["one", "two"], "one")


def test_a_hook_reference_ends_where_a_hook_name_cannot_go_on(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "a dir")
    hooks = layout.root / "hooks"
    text = 'command: "@hook:guard"\n---\nUse it. @hook:b.sh --flag'
    assert substitute(text, layout) == (
        f"command: \"sh '{hooks}/guard'\"\n---\nUse it. sh '{hooks}/b.sh' --flag"
    )
