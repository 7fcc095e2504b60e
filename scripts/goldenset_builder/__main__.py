"""``python -m goldenset_builder`` (from ``scripts/``): same as ``scripts/make_goldenset.py``."""
from .cli import main

main()
