"""A persistent reference collection in one SQLite file (see ``docs/store.md``)."""

from partialdup.store.records import AddReport, StoredDocument, StoreError, StoreStats, require_store, text_hash
from partialdup.store.store import Store

__all__ = ["Store", "StoreError", "AddReport", "StoreStats", "StoredDocument", "require_store", "text_hash"]
