"""Tests of partialdup.jobs.dedup and the ``dedup`` command: SimHash + Single-Pass clusters."""

from __future__ import annotations

import json
import random

import pytest

from partialdup.cli.main import main
from partialdup.core.config import SimHashParams
from partialdup.core.types import Document
from partialdup.jobs.dedup import DedupItem, dedup_documents, single_pass
from partialdup.text.sentences import SentenceSplitter

from tests.paths import SAMPLES

# distinct real documents: none is a copy of another (samples/README.md)
DISTINCT = ("GPL-2.txt", "debian-reference.debref_zhcn_ch01_s02_p0.txt", "man_chmod.1.zh_CN.txt", "man_cp.1.zh_CN.txt", "man_ls.1.zh_CN.txt")


def sample(name: str) -> Document:
    return Document(name, (SAMPLES / name).read_text(encoding="utf-8"))


def shuffled(document: Document, seed: int) -> Document:
    text = document.text
    sentences = [text[s.start : s.end] for s in SentenceSplitter().split(text)]
    random.Random(seed).shuffle(sentences)
    return Document("zz-reordered-" + document.id, "\n".join(sentences))


def test_a_reordered_text_joins_its_original_and_distinct_documents_stay_apart(tokenizer, idf):
    documents = [sample(name) for name in DISTINCT]
    reordered = shuffled(documents[2], 7)
    assert reordered.text != documents[2].text
    clusters = dedup_documents([reordered, *documents], idf=idf, tokenizer=tokenizer)
    assert [c.members for c in clusters] == [[d.id] for d in documents[:2]] + [[documents[2].id, reordered.id]] + [
        [d.id] for d in documents[3:]
    ]
    joined = clusters[2]
    assert joined.representative == documents[2].id and joined.distances[1] <= 3


def test_the_traditional_copy_of_a_man_page_joins_its_simplified_original(tokenizer, idf):
    documents = [sample(n) for n in ("man_ls.1.zh_CN.txt", "man_ls.1.zh_TW.txt", "man_cp.1.zh_CN.txt")]
    clusters = dedup_documents(documents, idf=idf, tokenizer=tokenizer, keep="longest")
    assert [c.members for c in clusters] == [["man_cp.1.zh_CN.txt"], ["man_ls.1.zh_CN.txt", "man_ls.1.zh_TW.txt"]]
    longest = max(documents[:2], key=lambda d: len(d.text)).id
    assert clusters[1].representative == longest


def test_single_pass_joins_the_nearest_centre_and_centres_do_not_move():
    items = [DedupItem("a", 0, 5), DedupItem("b", 0b111, 9), DedupItem("c", 0b111111, 9), DedupItem("d", 0b1, 1)]
    clusters = single_pass(items, 3, keep="longest")
    # c is 3 from b but 6 from the centre a: a new cluster, b stays with a
    assert [(c.members, c.distances, c.representative) for c in clusters] == [
        (["a", "b", "d"], [0, 3, 1], "b"),
        (["c"], [0], "c"),
    ]
    assert [c.representative for c in single_pass(items, 3)] == ["a", "c"]
    with pytest.raises(ValueError):
        single_pass(items, 3, keep="shortest")


def test_the_order_is_by_id_whatever_the_input_order(tokenizer, idf):
    documents = [sample(name) for name in sorted(p.name for p in SAMPLES.glob("*.txt"))]
    forward = dedup_documents(documents, idf=idf, tokenizer=tokenizer, params=SimHashParams(weights="tf"))
    backward = dedup_documents(documents[::-1], idf=None, tokenizer=tokenizer, params=SimHashParams(weights="tf"))
    assert [c.members for c in forward] == [c.members for c in backward]


def test_the_command_writes_one_cluster_per_line(tmp_path, capsys):
    out = tmp_path / "clusters.jsonl"
    assert main(["dedup", str(SAMPLES), "-o", str(out), "--hamming", "3"]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {"cluster", "representative", "size", "members", "distances"} <= set(records[0])
    together = [r["members"] for r in records if r["size"] > 1]
    assert ["man_ls.1.zh_CN.txt", "man_ls.1.zh_TW.txt"] in together
    assert sum(r["size"] for r in records) == len(list(SAMPLES.glob("*.txt")))
    assert "clusters" in capsys.readouterr().err


def test_a_bad_option_is_a_user_error(capsys):
    assert main(["dedup", str(SAMPLES), "--hamming", "64"]) == 2
    assert "--hamming must be <= 63" in capsys.readouterr().err


def test_minhash_clusters_the_same_copies_as_simhash_and_a_reordered_text(tokenizer, idf):
    documents = [sample(name) for name in DISTINCT]
    reordered = shuffled(documents[2], 7)
    traditional = sample("man_ls.1.zh_TW.txt")  # the Traditional version of DISTINCT's man_ls.1.zh_CN.txt
    clusters = dedup_documents([reordered, *documents, traditional], idf=idf, tokenizer=tokenizer, method="minhash")
    together = sorted(c.members for c in clusters if len(c.members) > 1)
    assert together == [[documents[2].id, reordered.id], ["man_ls.1.zh_CN.txt", traditional.id]]
    assert sum(len(c.members) for c in clusters) == len(documents) + 2
    joined = next(c for c in clusters if reordered.id in c.members)
    assert joined.measure == "similarities" and joined.distances[0] == 1.0 and joined.distances[1] >= 0.6


def test_minhash_single_pass_joins_the_most_agreeing_centre():
    import numpy as np

    from partialdup.jobs.dedup import LshCentres

    base = np.arange(128, dtype=np.uint64)
    near = base.copy()
    near[:10] += np.uint64(1000)  # agrees with base at 118/128
    far = base + np.uint64(5000)  # agrees nowhere
    items = [DedupItem("a", base, 1), DedupItem("b", near, 9), DedupItem("c", far, 2)]
    clusters = single_pass(items, LshCentres(0.8, 128), keep="longest")
    assert [(c.members, c.representative) for c in clusters] == [(["a", "b"], "b"), (["c"], "c")]
    assert clusters[0].distances == [1.0, round(118 / 128, 6)]


def test_the_minhash_command_writes_similarities(tmp_path, capsys):
    out = tmp_path / "clusters.jsonl"
    assert main(["dedup", str(SAMPLES), "-o", str(out), "--method", "minhash", "--threshold", "0.8"]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert all("similarities" in r and "distances" not in r for r in records)
    assert ["man_ls.1.zh_CN.txt", "man_ls.1.zh_TW.txt"] in [r["members"] for r in records]
    assert "MinHash Jaccard >= 0.8" in capsys.readouterr().err
    assert main(["dedup", str(SAMPLES), "--method", "minhash", "--threshold", "1.5"]) == 2
