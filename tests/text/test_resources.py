"""The IDF tables: the cached table is the table parsed from its files."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from partialdup.core.errors import IdfFormatError
from partialdup.text import resources
from partialdup.text.idf import DeferredValues, IdfTable, idf_fingerprint
from partialdup.text.resources import HEAD_TOKENS, bundled_idf_paths, load_idf


def same(a: IdfTable, b: IdfTable) -> bool:
    return (dict(a.values), a.default, a.sources, a.lowest(10), a.lowest(500), a.fingerprint()) == (
        dict(b.values), b.default, b.sources, b.lowest(10), b.lowest(500), b.fingerprint())


def test_the_cached_bundled_tables_are_the_parsed_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parsed = load_idf(cache=False)
    assert parsed.sources == tuple(str(p) for p in bundled_idf_paths())
    assert same(load_idf(), parsed)  # parsed, then written
    names = sorted(p.name for p in (tmp_path / "partialdup").iterdir())
    assert [name.rpartition("-")[0] for name in names] == ["idf", "idf-head"]

    def no_parsing(path):
        raise AssertionError("parsed again")

    monkeypatch.setattr(resources.IdfTable, "load", no_parsing)
    assert same(load_idf(), parsed)  # read back from the cache alone
    # The fingerprint comes back with the table, equal to the one of its content.
    assert load_idf()._fingerprint == idf_fingerprint(parsed.values, parsed.default)


def test_the_fingerprint_is_that_of_the_content():
    table = IdfTable({"的": 0.1, "猫": 5.0}, default=1.0)
    assert table.fingerprint() == idf_fingerprint({"猫": 5.0, "的": 0.1}, 1.0)
    assert table.fingerprint() != IdfTable({"的": 0.1, "猫": 5.5}, default=1.0).fingerprint()
    assert table.fingerprint() != IdfTable({"的": 0.1, "猫": 5.0}, default=2.0).fingerprint()


def test_a_changed_table_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    table = tmp_path / "t.tsv"
    table.write_text("的\t0.1\n猫\t5.0\n", encoding="utf-8")
    assert dict(load_idf([table]).values) == {"的": 0.1, "猫": 5.0}
    table.write_text("的\t0.1\n狗\t4.0\n猫\t5.0\n", encoding="utf-8")
    assert dict(load_idf([table]).values) == {"的": 0.1, "狗": 4.0, "猫": 5.0}
    table.write_text("broken line\n", encoding="utf-8")
    with pytest.raises(IdfFormatError, match="t.tsv:1"):
        load_idf([table])


def test_a_replaced_table_has_its_own_fingerprint():
    table = IdfTable({"的": 0.1}, default=1.0)
    table.fingerprint()
    other = dataclasses.replace(table, values={"的": 0.2})
    assert other.fingerprint() == idf_fingerprint({"的": 0.2}, 1.0) != table.fingerprint()


def test_a_table_read_back_reads_its_values_only_when_looked_at(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parsed = load_idf(cache=False)
    load_idf()  # parsed, cached with its head
    reads = []
    real = resources.read_cached
    monkeypatch.setattr(resources, "read_cached", lambda path: reads.append(path) or real(path))
    table = load_idf()
    assert isinstance(table.values, DeferredValues) and len(reads) == 1  # the head alone
    # The antecedents and the fingerprint come from the head.
    assert table.lowest(10) == parsed.lowest(10) and table.fingerprint() == parsed.fingerprint()
    assert table.default == parsed.default and len(reads) == 1
    # Anything more reads the whole table, once.
    assert table.lowest(HEAD_TOKENS + 5) == parsed.lowest(HEAD_TOKENS + 5)
    assert table.idf("的") == parsed.idf("的") and table.idf("no such token") == parsed.default
    assert same(table, parsed) and table.whole().values == parsed.values and len(reads) == 2
    # Sent to another process as plain values.
    assert pickle.loads(pickle.dumps(table)).values == parsed.values


def test_tables_changed_after_their_head_was_read_are_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    table = tmp_path / "t.tsv"
    table.write_text("的\t0.1\n猫\t5.0\n", encoding="utf-8")
    load_idf([table])
    deferred = load_idf([table])
    for stale in (tmp_path / "cache" / "partialdup").glob("idf-[0-9a-f]*"):
        stale.unlink()  # the whole table is parsed again when looked at ...
    table.write_text("的\t0.2\n猫\t5.0\n", encoding="utf-8")  # ... from changed files
    with pytest.raises(IdfFormatError, match="changed during the run"):
        deferred.idf("猫")
