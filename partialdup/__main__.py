"""``python -m partialdup``: the command line."""

import sys

from partialdup.cli.main import main

sys.exit(main())
