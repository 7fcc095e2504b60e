import math

import pytest

from partialdup.core.errors import IdfFormatError
from partialdup.text.idf import IdfTable, build_idf


def test_build_and_round_trip(tmp_path):
    table = build_idf([["a", "b"], ["a", "c"], ["a", "b"]], min_df=1)
    assert table.idf("a") == 0.0
    assert math.isclose(table.idf("b"), math.log(3 / 2))
    path = tmp_path / "t.tsv"
    table.save(path, header="test")
    loaded = IdfTable.load(path)
    assert loaded.lowest(1) == {"a"}
    assert math.isclose(loaded.idf("c"), math.log(3), rel_tol=1e-6)


def test_unknown_token_gets_the_median_not_a_low_value():
    table = IdfTable({"a": 1.0, "b": 2.0, "c": 9.0})
    assert table.idf("zzz") == 2.0


def test_merge_takes_n_lowest_of_each_language():
    zh = IdfTable({"的": 0.8, "在": 1.5, "计算机": 6.0})
    en = IdfTable({"the": 0.01, "of": 0.02, "kernel": 4.0})
    merged = IdfTable.merge([zh, en])
    assert merged.lowest(1) == {"的", "the"}
    assert merged.idf("kernel") == 4.0


def test_malformed_line_names_file_and_line(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("# comment\nok\t1.0\nbroken line\n", encoding="utf-8")
    with pytest.raises(IdfFormatError, match=r"bad.tsv:3: expected"):
        IdfTable.load(path)


def test_bundled_tables_are_loaded(idf):
    assert "的" in idf.lowest(5)
    assert "the" in idf.lowest(5)
