"""I/O: reading documents, writing JSONL, the PAN text-alignment formats."""
