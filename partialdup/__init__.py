"""partialdup: find passages copied between documents."""
