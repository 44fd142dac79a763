"""Random regex patterns through the oracle and through hookcourse.js.regex, compared.

The test suite runs the corpus's fuzz families at their fixed seeds; this script
draws as many more as you like, from the same token lists, and reports every
pair on which Python and the JavaScript runtime disagree:

    .venv/bin/python tests/oracle/fuzz_regex.py --seed 7 --patterns 20000
    .venv/bin/python tests/oracle/fuzz_regex.py --runtime /path/to/bun --engine bun

Exit status 1 when any pair disagrees.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ORACLE_DIR = Path(__file__).resolve().parent
CORPUS = ORACLE_DIR / "corpus.json"


def draw_pairs(spec: dict[str, Any], seed: int, patterns: int) -> list[tuple[str, str]]:
    """``patterns`` random patterns from a fuzz spec's tokens, each with a few subjects."""
    rng = random.Random(seed)
    pairs: dict[tuple[str, str], None] = {}  # ordered set: a pair drawn twice is kept once
    for _ in range(patterns):
        tokens = (rng.choice(spec["tokens"]) for _ in range(rng.randint(1, spec["max_tokens"])))
        pattern = spec.get("prefix", "") + "".join(tokens) + spec.get("suffix", "")
        for subject in rng.sample(spec["subjects"], spec["subjects_each"]):
            pairs[pattern, subject] = None
    return list(pairs)


def regex_specs() -> list[dict[str, Any]]:
    """The corpus's fuzz families that draw regex patterns."""
    specs: list[dict[str, Any]] = json.loads(CORPUS.read_text(encoding="utf-8"))["fuzz"]
    return [spec for spec in specs if "tokens" in spec]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--patterns", type=int, default=10000, help="per fuzz family")
    parser.add_argument("--runtime", default="node", help="node (default) or a bun binary")
    parser.add_argument("--engine", choices=["node", "bun"], default="node")
    args = parser.parse_args()

    sys.path.insert(0, str(ORACLE_DIR.parent.parent))
    from hookcourse.js.regex import RegexEngine, regex_error, regex_test

    engine = RegexEngine.NODE if args.engine == "node" else RegexEngine.BUN
    pairs = [
        pair
        for index, spec in enumerate(regex_specs())
        for pair in draw_pairs(spec, args.seed + index, args.patterns)
    ]
    request = json.dumps({"regexes": [{"pattern": p, "subject": s} for p, s in pairs]})
    done = subprocess.run(
        [args.runtime, str(ORACLE_DIR / "program.mjs"), "batch"],
        input=request.encode(),
        capture_output=True,
        check=True,
    )
    answer = json.loads(done.stdout)
    started = time.perf_counter()
    mismatches = 0
    for (pattern, subject), js in zip(pairs, answer["regexes"], strict=True):
        error = regex_error(pattern, engine)
        matched = regex_test(pattern, subject, engine)
        if (error is None) != js["valid"] or matched != js["test"]:
            mismatches += 1
            print(
                f"pattern={json.dumps(pattern)} subject={json.dumps(subject)}: "
                f"JS valid={js['valid']} test={js['test']}, "
                f"Python valid={error is None} test={matched}"
            )
    elapsed = time.perf_counter() - started
    print(
        f"{answer['runtime']} vs jsregex ({engine}): {len(pairs)} pairs, {mismatches} disagree; "
        f"Python took {elapsed:.2f} s ({elapsed / len(pairs) * 1e6:.1f} us a pair)"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
