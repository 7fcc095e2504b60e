"""I/O: reading documents in any encoding, writing JSONL safely, the terminal summary and progress, the PAN formats."""
