"""What a print-mode session sets off on its own (engine/lifecycle.py, frontmatter.py);
each rule seen on Claude Code 2.1.332 by the oracle scenario named."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookcourse.engine.frontmatter import split_frontmatter
from hookcourse.engine.lifecycle import (
    call_effects,
    instructions_loaded,
    prompt_expansion,
    shell_folder_after,
    startup_events,
    worktree_at_start,
)
from hookcourse.engine.permission_rule import CallPlace
from hookcourse.js.values import JSValue

SKILL = """---
name: guard
hooks:
  PreToolUse:
    - matcher: Bash   # only shell calls
      hooks:
        - type: command
          command: "echo 'no' >&2; exit 2"
          timeout: 5
---
Status: !`git status --short` and !`echo two`
not `this` nor a!`glued` one
"""


def _place(root: Path, cwd: str = "") -> CallPlace:
    project = root / "project"
    (project / "sub" / "deeper").mkdir(parents=True, exist_ok=True)
    (root / "home").mkdir(exist_ok=True)
    return CallPlace(str(project), str(project / cwd), str(root / "home"))


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_frontmatter_reads_the_block_subset_skills_are_written_in() -> None:
    frontmatter, body = split_frontmatter(SKILL)
    assert frontmatter["hooks"] == {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "echo 'no' >&2; exit 2", "timeout": 5}],
            }
        ]
    }
    assert body.startswith("Status:")
    assert _matter("paths: [src/**, 'a, b']\nn: -1.5\nok: true\nx: ~") == {
        "paths": ["src/**", "a, b"],
        "n": -1.5,
        "ok": True,
        "x": None,
    }
    # No frontmatter, an unclosed one, a BOM, CRLF, YAML past the subset: read, never raised.
    assert split_frontmatter("just text") == ({}, "just text")
    assert split_frontmatter("---\nname: x\n")[0] == {}
    assert split_frontmatter("\ufeff---\nname: x\n---\n")[0] == {"name": "x"}
    assert split_frontmatter("---\r\nname: x\r\n---\r\nbody") == ({"name": "x"}, "body")
    assert split_frontmatter("---\nhooks: &shared\n  Stop: []\n---\nbody") == ({}, "body")
    assert split_frontmatter("---\n- a\n---\n")[0] == {}  # a list, not a mapping
    deep = "\n".join(" " * depth + f"k{depth}:" for depth in range(3000))
    assert _matter(deep) == {}  # deeper than any hooks: nothing, never a RecursionError
    assert _matter("'quoted key': \"\\u00e9\"") == {"quoted key": "é"}


def _matter(yaml: str) -> dict[str, JSValue]:
    return split_frontmatter(f"---\n{yaml}\n---\n")[0]


@pytest.mark.parametrize(
    ("command", "moved"),
    [
        ("cd sub", "sub"),  # hidden-cd-subdir, hidden-cwd-after-cd
        ("cd sub && cd deeper && ls", "sub/deeper"),
        ("cd sub; cd missing; pwd", "sub"),
        ("cd sub | cat", None),  # a pipeline's cd runs in a subshell
        ("pushd sub", "sub"),  # x-pushd-allowed
        ("pushd sub && popd", None),
        ("cd sub && pushd deeper && popd", "sub"),
        ("cd .", None),
        ("cd $DIR", None),
        ("cd 'unclosed", None),
        ("echo cd sub", None),
    ],
)
def test_a_cd_or_pushd_moves_the_shell(tmp_path: Path, command: str, moved: str | None) -> None:
    place = _place(tmp_path)
    expected = None if moved is None else str(Path(place.project_dir, moved))
    assert shell_folder_after(command, place) == expected


def test_a_bash_cd_sets_off_cwd_changed(tmp_path: Path) -> None:
    place = _place(tmp_path)
    effects = call_effects("Bash", {"command": "cd sub"}, "toolu_1", place)
    sub = str(Path(place.project_dir, "sub"))
    assert [(e.event, dict(e.fields)) for e in effects.events] == [
        ("CwdChanged", {"cwd": sub, "old_cwd": place.project_dir, "new_cwd": sub})
    ]
    assert effects.cwd == sub
    assert effects.describe() == [
        f'CwdChanged fires (new_cwd "{sub}")',
        f"later hooks run in {sub} (their cwd and payload cwd)",
    ]
    assert call_effects("Bash", {"command": "ls"}, "toolu_1", place).events == ()


def test_a_cd_out_of_the_working_directories_fires_then_resets(tmp_path: Path) -> None:
    """x-cd-parent-allowed-tools: CwdChanged to the parent (its hooks run there), then the
    shell is back in the project; x-cd-parent-add-dir: an added folder keeps it."""
    place = _place(tmp_path)
    effects = call_effects("Bash", {"command": "cd .."}, "toolu_1", place)
    parent = str(Path(place.project_dir).parent)
    assert [dict(e.fields)["new_cwd"] for e in effects.events] == [parent]
    assert effects.cwd == place.project_dir
    added = CallPlace(place.project_dir, place.cwd, place.home, (parent,))
    assert call_effects("Bash", {"command": "cd .."}, "toolu_1", added).cwd == parent


@pytest.mark.parametrize(
    ("paths", "globs"),
    [
        ('"**/*.{ts,tsx}"', ["**/*.ts", "**/*.tsx"]),  # x-rule-brace
        ('\n  - "src/{a,b}/*.md"\n  - "docs/**"', ["src/a/*.md", "src/b/*.md", "docs"]),
        ('"a{b}c, d"', ["a{b}c", "d"]),
    ],
)
def test_a_rules_brace_glob_is_expanded(tmp_path: Path, paths: str, globs: list[str]) -> None:
    place = _place(tmp_path)
    project = Path(place.project_dir)
    _write(project / ".claude/rules/r.md", f"---\npaths: {paths}\n---\nR.\n")
    target = project / globs[0].replace("**/", "").replace("*", "x")
    effects = call_effects("Read", {"file_path": str(target)}, "toolu_1", place)
    assert [dict(e.fields).get("globs") for e in effects.events] == [globs]


def test_a_write_of_a_new_file_loads_its_folders_claude_md(tmp_path: Path) -> None:
    """x-write-new-claude-md."""
    place = _place(tmp_path)
    project = Path(place.project_dir)
    _write(project / "pkg" / "CLAUDE.md", "pkg\n")
    new = str(project / "pkg" / "new.txt")
    effects = call_effects("Write", {"file_path": new, "content": "n"}, "toolu_1", place)
    assert [dict(e.fields)["load_reason"] for e in effects.events] == ["nested_traversal"]


def test_a_read_loads_nested_memory_and_matching_rules(tmp_path: Path) -> None:
    """hidden-nested-claude-md, hidden-rules-glob-loaded."""
    place = _place(tmp_path)
    project = Path(place.project_dir)
    _write(project / "CLAUDE.md", "top\n")  # loaded at start, not by a Read
    _write(project / "sub" / "CLAUDE.md", "sub notes\n")
    _write(project / ".claude/rules/py.md", '---\npaths:\n  - "sub/**"\n---\nTypes.\n')
    _write(project / ".claude/rules/web.md", "---\npaths: web/*.css\n---\n")
    target = project / "sub" / "deeper" / "a.py"
    effects = call_effects("Read", {"file_path": str(target)}, "toolu_1", place)
    assert [dict(e.fields) for e in effects.events] == [
        {
            "file_path": str(project / "sub" / "CLAUDE.md"),
            "memory_type": "Project",
            "load_reason": "nested_traversal",
            "trigger_file_path": str(target),
        },
        {
            "file_path": str(project / ".claude/rules/py.md"),
            "memory_type": "Project",
            "load_reason": "path_glob_match",
            "globs": ["sub"],
            "trigger_file_path": str(target),
        },
    ]
    outside = call_effects("Read", {"file_path": "/etc/hostname"}, "toolu_1", place)
    assert outside.events == ()


def test_a_launched_skill_sets_off_its_inline_commands_and_hooks(tmp_path: Path) -> None:
    """hidden-pre-skill-shell-command, hidden-skill-frontmatter-hooks."""
    place = _place(tmp_path)
    _write(Path(place.project_dir, ".claude/skills/guard/SKILL.md"), SKILL)
    effects = call_effects("Skill", {"skill": "guard"}, "toolu_t0c0", place)
    assert [e.fields["tool_input"] for e in effects.events] == [
        {"command": "git status --short"},
        {"command": "echo two"},
    ]
    assert effects.events[1].fields["tool_use_id"] == "toolu_t0c0:preamble-1"
    assert effects.events[0].fields["command_source"] == "projectSettings"
    assert effects.skill == "guard"
    assert call_effects("Skill", {"skill": "../x"}, "t", place).skill is None
    agent = call_effects("Agent", {"prompt": "hi"}, "t", place)
    assert agent.subagent == "general-purpose"


@pytest.mark.parametrize(
    ("flags", "name"),
    [
        (["-p", "go", "--worktree", "wt1"], "wt1"),
        (["-w", "fix-1"], "fix-1"),
        (["--worktree=wt2"], "wt2"),
        (["--worktree"], None),
        (["--worktree", "--verbose"], None),
        (["--verbose"], None),
    ],
)
def test_worktree_at_start(flags: list[str], name: str | None) -> None:
    """wt-start-hook-folder: --worktree NAME fires WorktreeCreate with the name (a name
    Claude Code would make up itself is not modelled)."""
    step = worktree_at_start(flags)
    assert (None if step is None else dict(step.fields)) == (
        None if name is None else {"name": name}
    )


def test_setup_and_prompt_expansion(tmp_path: Path) -> None:
    """hidden-setup-init, hidden-slash-command-expansion."""
    assert [dict(e.fields) for e in startup_events(["-p", "--init"])] == [{"trigger": "init"}]
    assert startup_events(["--verbose"]) == ()
    place = _place(tmp_path)
    _write(Path(place.project_dir, ".claude/commands/greet.md"), "Say hello to $ARGUMENTS\n")
    _write(Path(place.home, ".claude/commands/team/deploy.md"), "Deploy\n")
    greet = prompt_expansion("/greet world", place)
    assert greet is not None and dict(greet.fields) == {
        "expansion_type": "slash_command",
        "command_name": "greet",
        "command_args": "world",
        "command_source": "projectSettings",
        "prompt": "/greet world",
    }
    deploy = prompt_expansion("/team:deploy", place)
    assert deploy is not None and deploy.fields["command_source"] == "userSettings"
    for prompt in ("/nothing here", "greet world", "/../greet", "/team::deploy"):
        assert prompt_expansion(prompt, place) is None


@pytest.mark.parametrize("path", ["/".join(["d" * 250] * 20) + "/x.md", "a\0b/x.md"])
def test_a_path_the_system_refuses_loads_nothing(tmp_path: Path, path: str) -> None:
    """A Write's path too long for the file system, or with a NUL: no instruction file
    there, and no OSError or ValueError out of the lookup."""
    assert instructions_loaded(path, _place(tmp_path)) == ()
