"""A pattern regress refuses reads, on the desktop, as Node 20 words the refusal.

The browser backend shows V8's own reason (``Invalid regular expression: /a)/: Unmatched
')'`` gives ``Unmatched ')'``); hookcourse/js/regress_errors.py turns regress's texts into
those words. Every corpus pattern that passes the syntax pre-pass and that regress
refuses must give Node's reason. (What the pre-pass refuses reads the same on both
backends; tests/lite/test_verdict_parity.py compares every invalid corpus pattern's
text in the browser too.)
"""

from __future__ import annotations

import json
import subprocess

import regress

from hookcourse.js.regex import RegexEngine, _Context, _Invalid, _prepass, regex_error
from tests.support.runtimes import node_binary

# Each pattern's reason, as V8 ends its SyntaxError's message ("" when it compiles).
NODE_REASONS = """
const patterns = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(patterns.map((p) => {
  try { new RegExp(p); return ""; } catch (error) { return error.message.split(": ").pop(); }
})));
"""


def refused_by_regress(pattern: str) -> bool:
    """True when the pre-pass lets ``pattern`` through (Node's profile) and regress refuses."""
    try:
        prepared = _prepass(pattern, _Context(pattern, RegexEngine.NODE))
    except _Invalid:
        return False
    try:
        regress.Regex(prepared)
    except Exception:  # regress's error for a pattern it cannot compile
        return True
    return False


def test_regress_refusals_read_as_node_words_them(corpus_pairs: list[list[str]]) -> None:
    patterns = sorted({pattern for pattern, _ in corpus_pairs if refused_by_regress(pattern)})
    assert len(patterns) > 300  # the corpus's unbalanced groups, bad quantifiers, lone escapes
    run = subprocess.run(
        [node_binary(), "-e", NODE_REASONS],
        input=json.dumps(patterns),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    node = dict(zip(patterns, json.loads(run.stdout), strict=True))
    desktop = {pattern: regex_error(pattern, RegexEngine.NODE) for pattern in patterns}
    assert {p: (desktop[p], node[p]) for p in patterns if desktop[p] != node[p]} == {}
