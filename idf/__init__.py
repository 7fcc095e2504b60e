"""Bundled IDF tables (installed as ``partialdup.idf_tables``); see README.md here."""
