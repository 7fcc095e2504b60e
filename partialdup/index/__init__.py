"""Index: candidate search. Only sentences that share a feature are compared."""
