"""Precision and recall of `hookcourse validate` on the hand-written configurations
(tests/validate_rules/fresh_configs.json), in one process.

Prints: false positives (findings no case expects), recall of the issue's Missed list
(each expected finding raised exactly, and raised at its handler or group by any rule),
the noisy rules' cases, and whether following each fix leaves a clean file. Usage:
    .venv/bin/python benchmarks/validate_fresh.py [--verbose]
Exit 1 when any false positive, missed finding or broken fix is left.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.fresh_configs import Found, cases, expected, lay_out, run  # noqa: E402

GROUP = re.compile(r"\$\.hooks\.[A-Za-z]+\[\d+\]")


def _site(path: str) -> str:
    """The matcher group a JSON path points into ($.hooks.Event[i]), or the path itself."""
    match = GROUP.match(path)
    return match.group(0) if match else path


def main() -> int:
    verbose = "--verbose" in sys.argv
    false_positives: list[tuple[str, Found]] = []
    exact, at_site, total = Counter[str](), Counter[str](), Counter[str]()
    broken_fixes: list[str] = []
    started = time.perf_counter()
    for case in cases():
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            lay_out(root, case["files"])
            found = run(root, case).found
            wanted = expected(case)
            kind = case["covers"].split(":", 1)[0]
            false_positives += [(case["id"], item) for item in found if item not in wanted]
            sites = {(file, _site(path)) for _rule, file, path in found}
            for item in wanted:
                total[kind] += 1
                exact[kind] += item in found
                at_site[kind] += (item[1], _site(item[2])) in sites
                if verbose and item not in found:
                    print(f"missed  {case['id']}: {item}")
            if "fixed" in case:
                lay_out(root, case["fixed"])
                if run(root, case).found != expected(case, "fixed_expect"):
                    broken_fixes.append(case["id"])
    elapsed = time.perf_counter() - started
    print(f"{len(cases())} cases in {elapsed:.2f} s")
    for where, item in false_positives:
        print(f"false positive  {where}: {item}")
    print(f"false positives: {len(false_positives)}")
    for kind in sorted(total):
        print(
            f"{kind:<10} expected findings {total[kind]:3d}: raised exactly {exact[kind]:3d} "
            f"({100 * exact[kind] / total[kind]:.0f}%), at the handler or group "
            f"{at_site[kind]:3d} ({100 * at_site[kind] / total[kind]:.0f}%)"
        )
    print(f"fixes that leave findings (or add some): {len(broken_fixes)} {broken_fixes}")
    missed = sum(total.values()) - sum(exact.values())
    return 1 if false_positives or broken_fixes or missed else 0


if __name__ == "__main__":
    sys.exit(main())
