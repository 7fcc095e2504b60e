"""``python -m partialdup``: the command line."""

import sys

from partialdup.cli.main import main

# Guarded: worker processes started by spawn (Dask's local cluster, pools
# on macOS) import this module again and must not run the command.
if __name__ == "__main__":
    sys.exit(main())
