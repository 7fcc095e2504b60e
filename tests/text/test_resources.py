"""The IDF tables: the cached table is the table parsed from its files."""

from __future__ import annotations

import dataclasses

import pytest

from partialdup.core.errors import IdfFormatError
from partialdup.text import resources
from partialdup.text.idf import IdfTable, idf_fingerprint
from partialdup.text.resources import bundled_idf_paths, load_idf


def same(a: IdfTable, b: IdfTable) -> bool:
    return (dict(a.values), a.default, a.sources, a.lowest(10), a.lowest(500), a.fingerprint()) == (
        dict(b.values), b.default, b.sources, b.lowest(10), b.lowest(500), b.fingerprint())


def test_the_cached_bundled_tables_are_the_parsed_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parsed = load_idf(cache=False)
    assert parsed.sources == tuple(str(p) for p in bundled_idf_paths())
    assert same(load_idf(), parsed)  # parsed, then written
    [name] = [p.name for p in (tmp_path / "partialdup").iterdir()]
    assert name.startswith("idf-")

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
