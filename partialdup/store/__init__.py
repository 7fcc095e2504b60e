"""A persistent reference collection in one SQLite file (see ``docs/store.md``)."""

from partialdup.store.store import AddReport, Store, StoredDocument, StoreError, StoreStats, require_store, text_hash

__all__ = ["Store", "StoreError", "AddReport", "StoreStats", "StoredDocument", "require_store", "text_hash"]
