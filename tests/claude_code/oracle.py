"""Command line of the oracle: run scenarios against a Claude Code binary.

    python tests/claude_code/oracle.py run ID [ID ...]     observed vs predicted, one scenario
    python tests/claude_code/oracle.py list                the corpus ids
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle_binary import find_binary  # noqa: E402
from oracle_compare import disagreements  # noqa: E402
from oracle_predict import FireServer  # noqa: E402
from oracle_run import check_scenario  # noqa: E402
from oracle_scenario import load_corpus  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="oracle")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("ids", nargs="+")
    run.add_argument("--keep", action="store_true")
    run.add_argument("--full", action="store_true", help="print the whole observation and prediction")
    sub.add_parser("list")
    args = parser.parse_args(argv)
    corpus = load_corpus()
    if args.command == "list":
        print("\n".join(corpus))
        return 0
    binary = find_binary()
    server = FireServer()
    try:
        for sid in args.ids:
            checked = check_scenario(binary, server, corpus[sid], args.keep)
            if args.full:
                print(json.dumps(checked, indent=1))
            verdict = checked["comparison"]["verdict"]
            print(f"{sid}: {verdict} ({checked['observed']['seconds']} s)")
            for name, field in disagreements(checked["comparison"]).items():
                print(f"  {name}:\n    fire:   {json.dumps(field['fire'])}\n    claude: {json.dumps(field['claude'])}")
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
