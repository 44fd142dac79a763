"""``python -m hookcourse``: the same command line as the ``hookcourse`` script."""

from hookcourse.cli import main

raise SystemExit(main())
