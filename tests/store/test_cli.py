"""``partialdup index ...`` and ``partialdup check --db`` on the command line."""

from __future__ import annotations

import json
import sqlite3

from partialdup.cli.main import main
from partialdup.store.schema import SCHEMA_VERSION
from tests.paths import SLICE


def test_check_db_writes_the_bytes_check_against_writes(tmp_path, capsys) -> None:
    db = tmp_path / "s.db"
    assert main(["index", "add", str(SLICE / "src"), "--db", str(db), "--max-postings", "40"]) == 0
    assert main(["check", str(SLICE / "susp"), "--db", str(db), "--max-postings", "40", "-o", str(tmp_path / "db.jsonl")]) == 0
    assert main(["check", str(SLICE / "susp"), "--against", str(SLICE / "src"), "--max-postings", "40",
                 "-o", str(tmp_path / "mem.jsonl")]) == 0
    found = (tmp_path / "db.jsonl").read_bytes()
    assert found and found == (tmp_path / "mem.jsonl").read_bytes()
    capsys.readouterr()
    assert main(["index", "stats", "--db", str(db)]) == 0
    stats = dict(line.split("\t") for line in capsys.readouterr().out.splitlines())
    assert int(stats["documents"]) == len(list((SLICE / "src").iterdir()))
    assert float(stats["bytes_per_sentence"]) > 0


def test_add_remove_list_and_check_add(tmp_path, capsys) -> None:
    db = tmp_path / "s.db"
    first, second = sorted((SLICE / "src").iterdir())[:2]
    assert main(["index", "add", str(first), "--db", str(db)]) == 0
    assert main(["check", str(second), "--db", str(db), "--add", "-o", str(tmp_path / "out.jsonl")]) == 0
    capsys.readouterr()
    assert main(["index", "list", "--db", str(db)]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == [str(first), str(second)]
    assert main(["index", "remove", str(first), "nothing-such", "--db", str(db)]) == 0
    assert "no document 'nothing-such'" in capsys.readouterr().err
    assert main(["index", "list", "--db", str(db)]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == [str(second)]


def test_reading_no_document_is_exit_2(tmp_path, capsys) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a").write_text("no suffix, not read", encoding="utf-8")
    db = tmp_path / "s.db"
    assert main(["index", "add", str(tmp_path / "notes"), "--db", str(db)]) == 2
    assert "no documents read from" in capsys.readouterr().err
    assert main(["index", "add", str(SLICE / "src" / "common_licenses_GPL_2.txt"), "--db", str(db)]) == 0
    assert main(["check", str(tmp_path / "notes"), "--db", str(db)]) == 2
    assert capsys.readouterr().err.endswith(f"error: no documents read from {tmp_path / 'notes'} (1 file(s) neither .txt nor .jsonl: try --glob '*')\n")


def test_user_errors_are_one_line_exit_2(tmp_path, capsys) -> None:
    db = tmp_path / "s.db"
    query = str(SLICE / "susp" / sorted(p.name for p in (SLICE / "susp").iterdir())[0])
    assert main(["check", query, "--db", str(db)]) == 2
    assert "no such store" in capsys.readouterr().err
    assert main(["index", "add", str(SLICE / "src" / "common_licenses_GPL_2.txt"), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["check", query, "--db", str(db), "--threshold", "0.7"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--threshold" in err
    assert main(["check", query, "--against", str(SLICE / "src"), "--add"]) == 2


def test_extra_jsonl_fields_are_stored_and_listed(tmp_path, capsys) -> None:
    # A real sentence of the GPL (samples/GPL-2.txt) as a JSONL record with a date and a URL.
    text = "The licenses for most software are designed to take away your freedom to share and change it."
    stream = tmp_path / "news.jsonl"
    stream.write_text(json.dumps({"id": "n1", "text": text, "date": "2024-05-01", "url": "https://example.org/x"}) + "\n", encoding="utf-8")
    db = tmp_path / "c.db"
    assert main(["index", "add", str(stream), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["index", "list", "--db", str(db)]) == 0
    [record] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (record["id"], record["date"], record["url"]) == ("n1", "2024-05-01", "https://example.org/x")


def test_a_store_of_an_older_schema_is_refused_in_one_line(tmp_path, capsys) -> None:
    db = tmp_path / "old.db"
    assert main(["index", "add", str(SLICE / "src" / "common_licenses_GPL_2.txt"), "--db", str(db)]) == 0
    with sqlite3.connect(str(db)) as connection:  # as a store of schema 3 (before the word table) reads
        connection.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    connection.close()
    capsys.readouterr()
    query = str(SLICE / "susp" / sorted(p.name for p in (SLICE / "susp").iterdir())[0])
    for command in (["check", query, "--db", str(db)], ["index", "add", query, "--db", str(db)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"old.db: store schema version 3, this partialdup reads {SCHEMA_VERSION}" in err
