"""Stage ``run-hooks``: ``run_hooks``, in the shape the learner writes.

``hooks`` is the settings' ``{"PreToolUse": [group, ...], "PostToolUse": [...]}``,
``tool`` the call ``{"name", "input", "response"?}`` and ``results`` each handler's
``{"code", "stdout", "stderr"}`` by event, then by command; the answer is a dict
``{"pre", "tool", "post"}``. Built from the earlier stages' ``match_hook`` and
``merge_pre_tool_use``. ``results[event][command]`` is read only for a handler that
runs and ``tool["response"]`` only when the tool runs, so a live loop can pass
mappings that start the hook or the tool on lookup. The package's own version, which
``./your_program.sh hook-run`` runs, is ``hookcourse.stages.run_hooks.reference``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hookcourse.js.json import JSONSyntaxError, parse
from hookcourse.js.values import JSValue, js_trim, js_trim_start, strict_equals_number

# The two earlier stages this one is built from: in notebook 08, the learner's own.
from hookcourse.stages.matcher_and_dispatch.solution import match_hook
from hookcourse.stages.merge_decisions.solution import merge_pre_tool_use


def handlers_that_run(groups: Sequence[Mapping[str, Any]] | None, tool_name: str) -> list[str]:
    """The commands of the groups whose matcher selects the tool, each once, in order."""
    ran: list[str] = []
    for group in groups or []:
        if not match_hook(group.get("matcher"), tool_name):
            continue
        for handler in group["hooks"]:
            command = handler["command"]
            if command not in ran:  # identical commands run once
                ran.append(command)
    return ran


def look_up(results: Mapping[str, Any], event: str, ran: list[str]) -> list[Any]:
    """Each running command's result, looked up once (a live loop runs the hook here)."""
    if not ran:
        return []  # results[event] is not even read
    by_command = results[event]
    return [by_command[command] for command in ran]


def stdout_object(stdout: JSValue) -> dict[str, JSValue] | None:
    """The JSON object a hook printed (``stdout ?? ""``), or None: only text that starts
    with "{" after js_trim_start, parses, and is an object."""
    text = js_trim_start(stdout if isinstance(stdout, str) else "")
    if not text.startswith("{"):
        return None  # "Formatted 3 files\n{...}" is plain text, not JSON
    try:
        value = parse(text)
    except JSONSyntaxError:
        return None
    return value if isinstance(value, dict) else None


def read_post(result: Mapping[str, JSValue], feedback: list[str], contexts: list[str]) -> None:
    """One PostToolUse result: exit 2's stderr or a block's reason as feedback, and its context."""
    if strict_equals_number(result.get("code"), 2):
        stderr = result.get("stderr")
        feedback.append(js_trim(stderr if isinstance(stderr, str) else "") or "hook blocked")
        return  # exit 2 outranks any JSON
    out = stdout_object(result.get("stdout"))
    if out is None:
        return
    reason = out.get("reason")
    if out.get("decision") == "block" and isinstance(reason, str) and js_trim(reason):
        feedback.append(reason)  # as written, not trimmed
    specific = out.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("hookEventName") == "PostToolUse":
        context = specific.get("additionalContext")
        if isinstance(context, str):
            contexts.append(context)


def run_hooks(
    hooks: Mapping[str, Any], tool: Mapping[str, Any], results: Mapping[str, Any]
) -> dict[str, Any]:
    """``{pre, tool, post}`` for one tool call: its hooks, whether it runs, and what follows."""
    name = tool["name"]
    pre_ran = handlers_that_run(hooks.get("PreToolUse"), name)
    merged = merge_pre_tool_use(look_up(results, "PreToolUse", pre_ran), tool["input"])
    pre = {
        "ran": list(pre_ran),
        "decision": merged["decision"],
        "reason": merged["reason"],
        "contexts": merged["contexts"],
    }
    if merged["decision"] not in (None, "allow"):  # deny, ask and defer: the tool never runs
        return {"pre": pre, "tool": {"runs": False, "input": None, "response": None}, "post": None}
    # Read only now: a live loop runs the tool on this lookup.
    response = tool.get("response")
    ran = {"runs": True, "input": merged["input"], "response": response}
    post_ran = handlers_that_run(hooks.get("PostToolUse"), name)
    feedback: list[str] = []
    contexts: list[str] = []
    for result in look_up(results, "PostToolUse", post_ran):
        read_post(result, feedback, contexts)
    post = {
        "ran": list(post_ran),
        "feedback": list(feedback),
        "contexts": list(contexts),
    }
    return {"pre": pre, "tool": ran, "post": post}
