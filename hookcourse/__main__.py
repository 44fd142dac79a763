"""``python -m hookcourse``: the same command line as the ``hookcourse`` script."""

from hookcourse.entry import main

raise SystemExit(main())
