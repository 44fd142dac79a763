"""Which code units regress case-folds differently from Bun: hookcourse.js.regex's _CASE_EXCEPTIONS.

For every BMP code unit c (surrogates aside) it asks Bun which units ``(?i:c)`` matches,
and raw regress (no pre-pass) which units ``(?i:c)`` and ``(?i:[c])`` match. The
exceptions are the units Bun matches only with themselves while regress pairs them
with others; once they are stand-ins, every other unit must match exactly the same
units in both, which the script checks. About 20 seconds:

    .venv/bin/python tests/oracle/case_exceptions.py --runtime /path/to/bun

Prints the exception list in _CASE_EXCEPTIONS's notation; exit status 1 when it differs
from the one in hookcourse/js/regex.py or when stand-ins do not close the gap.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import regress

ROOT = Path(__file__).resolve().parents[2]
UNITS = [u for u in range(0x10000) if not 0xD800 <= u <= 0xDFFF]
# Bun's side: each unit whose (?i:...) matches anything but itself, with what it matches.
BUN_SCRIPT = """
const units = [];
for (let u = 0; u < 0x10000; u++) if (u < 0xd800 || u > 0xdfff) units.push(u);
const all = String.fromCharCode(...units);
const out = {};
for (const c of units) {
  const re = new RegExp(`(?i:\\\\u${c.toString(16).padStart(4, "0")})`, "g");
  const found = [];
  for (let m; (m = re.exec(all)) !== null; ) found.push(m[0].charCodeAt(0));
  if (found.length !== 1 || found[0] !== c) out[c] = found;
}
console.log(JSON.stringify(out));
"""


def bun_classes(runtime: str) -> dict[int, set[int]]:
    try:
        done = subprocess.run([runtime, "-e", BUN_SCRIPT], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit(f"case_exceptions.py: cannot run {runtime!r} ({error}); pass --runtime BUN")
    return {int(unit): set(found) for unit, found in json.loads(done.stdout).items()}


def regress_classes(form: str) -> dict[int, set[int]]:
    """For ``form`` ("(?i:{})" or "(?i:[{}])"), each unit matching more than itself."""
    text = "".join(map(chr, UNITS))
    data = text.encode()  # regress reports UTF-8 byte ranges
    out = {}
    for unit in UNITS:
        regex = regress.Regex(form.format(f"\\u{unit:04x}"))
        found = {ord(data[m.range()].decode()) for m in regex.find_iter(text)}
        if found != {unit}:
            out[unit] = found
    return out


def notation(units: list[int]) -> str:
    """Sorted units as space-separated hex, runs written first-last."""
    runs: list[list[int]] = []
    for unit in units:
        if runs and runs[-1][1] == unit - 1:
            runs[-1][1] = unit
        else:
            runs.append([unit, unit])
    return " ".join(f"{a:04x}" if a == b else f"{a:04x}-{b:04x}" for a, b in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runtime", default="bun", help="a bun binary")
    runtime = parser.parse_args().runtime

    bun = bun_classes(runtime)
    regress_forms = [regress_classes("(?i:{})"), regress_classes("(?i:[{}])")]
    units = set(bun).union(*regress_forms)
    exceptions = sorted(
        u for u in units if u not in bun and any(u in form for form in regress_forms)
    )
    unclosed = [
        f"{u:04x}"
        for u in sorted(units.difference(exceptions))
        if any(bun.get(u, {u}) != form.get(u, {u}) - set(exceptions) for form in regress_forms)
    ]
    found = notation(exceptions)
    sys.path.insert(0, str(ROOT))
    from hookcourse.js.regex import _CASE_EXCEPTIONS

    print(found)
    print(f"{len(exceptions)} exceptions; {len(bun)} units have case partners in Bun")
    if unclosed:
        print(f"stand-ins do not close the gap for: {' '.join(unclosed)}")
    if found != " ".join(_CASE_EXCEPTIONS.split()):
        print("hookcourse/js/regex.py's _CASE_EXCEPTIONS differs: update it to the line above")
    return 1 if unclosed or found != " ".join(_CASE_EXCEPTIONS.split()) else 0


if __name__ == "__main__":
    sys.exit(main())
