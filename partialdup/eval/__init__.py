"""Evaluation: PAN and sentence-pair measures, and scoring methods on a gold set."""
