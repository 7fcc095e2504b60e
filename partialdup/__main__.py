"""``python -m partialdup``: the command line."""

from partialdup.cli.main import run

# Guarded: worker processes started by spawn (Dask's local cluster, pools
# on macOS) import this module again and must not run the command.
if __name__ == "__main__":
    run()
