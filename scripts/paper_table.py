"""Reproduce the shape of the paper's Table 1 and Figures 1-2 on our gold set.

Runs every method over a range of settings through ``partialdup.eval.goldset``
(one shared sentence split and tokenization) and writes into ``--out``:
  * ``rows.jsonl``  every row (the keys of ``partialdup eval --json``),
  * ``table1.md``   F1, features, space, index and comparison time per method,
                    with ratios to 3-Shingle, all measured in this one run,
  * ``fig1_threshold.png``  F1 against tau for the shingles and SpotSig,
  * ``fig2_imatch.png``     F1 against I-Match's IDF range,
  * ``fig3_lowidfsig.png``  Low-IDF-Sig F1 against n and against tau.

    python scripts/paper_table.py goldenset --out goldenset/results
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from partialdup.core.config import Config, IMatchParams, LowIdfSigParams
from partialdup.eval.goldset import EvalRow, evaluate_method
from partialdup.methods import method_params
from partialdup.pipeline.factory import make_detector

from goldset_setup import prepare

THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
ANTECEDENTS = (10, 50, 500, 1000)
IMATCH_RANGES = ((0.0, 1.0), (0.1, 1.0), (0.2, 1.0), (0.3, 1.0), (0.4, 1.0), (0.5, 1.0), (0.3, 0.9), (0.3, 0.8))


def run_all(goldset: Path) -> list[EvalRow]:
    prepared = prepare(goldset)
    gold, idf, tokenized = prepared.gold, prepared.idf, prepared.tokenized
    print(f"tokenized {len(gold.sources) + len(gold.suspicious)} documents in {tokenized.seconds:.1f}s", file=sys.stderr)
    rows: list[EvalRow] = []

    def run(method: str, detector, params: str = "") -> None:
        row = evaluate_method(gold, tokenized, detector, method=method, params=params)
        rows.append(row)
        print(json.dumps(row.as_json()), file=sys.stderr, flush=True)

    shared = prepared.shared
    for method in ("3-shingle", "4-shingle", "5-shingle", "spotsig", "spotsig-small"):
        for tau in THRESHOLDS:
            run(method, make_detector(method, idf, Config(threshold=tau), **shared))
    for low, high in IMATCH_RANGES:
        run("i-match", make_detector("i-match", idf, Config(i_match=IMatchParams(low=low, high=high)), **shared), f"[{low},{high}]")
    for n in ANTECEDENTS:
        for tau in THRESHOLDS:
            config = Config(threshold=tau, low_idf_sig=LowIdfSigParams(antecedents=n))
            run("low-idf-sig", make_detector("low-idf-sig", idf, config, **shared), f"n={n}")
    return rows


def pick(rows: list[EvalRow], method: str, threshold: float | None = None, params: str | None = None) -> EvalRow:
    matching = [
        r for r in rows
        if r.method == method and (threshold is None or abs(r.threshold - threshold) < 1e-9)
        and (params is None or r.params == params)
    ]
    return max(matching, key=lambda r: r.f1)


def table1(rows: list[EvalRow]) -> str:
    default_n = Config().low_idf_sig.antecedents
    chosen = [
        ("3-Shingle", pick(rows, "3-shingle", 0.6)),
        ("4-Shingle", pick(rows, "4-shingle", 0.6)),
        ("5-Shingle", pick(rows, "5-shingle", 0.6)),
        ("I-Match [0.3, 1.0]", pick(rows, "i-match", params="[0.3,1.0]")),
        ("SpotSig (full list)", pick(rows, "spotsig", method_params(Config(), "spotsig").threshold)),
        ("SpotSig (small list)", pick(rows, "spotsig-small", method_params(Config(), "spotsig-small").threshold)),
    ] + [(f"Low-IDF-Sig ({n})", pick(rows, "low-idf-sig", 0.6, f"n={n}")) for n in ANTECEDENTS]
    reference = chosen[0][1]
    lines = [
        "| method | τ | P | R | F1 | plagdet | features | space (bytes) | index s | compare s | search s | space / 3-Sh | index / 3-Sh | compare / 3-Sh | search / 3-Sh |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in chosen:
        marker = " (default)" if name == f"Low-IDF-Sig ({default_n})" else ""
        lines.append(
            f"| {name}{marker} | {r.threshold:.1f} | {r.precision:.3f} | {r.recall:.3f} | {r.f1:.3f} | {r.plagdet:.3f} | "
            f"{r.features:,} | {r.index_bytes:,} | {r.index_seconds:.2f} | {r.compare_seconds:.2f} | {r.search_seconds:.3f} | "
            f"{r.index_bytes / reference.index_bytes:.1%} | {r.index_seconds / reference.index_seconds:.1%} | "
            f"{r.compare_seconds / reference.compare_seconds:.1%} | {r.search_seconds / reference.search_seconds:.1%} |"
        )
    return "\n".join(lines) + "\n"


def plots(rows: list[EvalRow], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for method in ("3-shingle", "4-shingle", "5-shingle", "spotsig", "spotsig-small"):
        series = sorted((r.threshold, r.f1) for r in rows if r.method == method)
        ax.plot(*zip(*series), marker="o", label=method)
    ax.set(xlabel="threshold τ", ylabel="sentence-pair F1", title="F1 against τ (cf. paper Fig. 1)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "fig1_threshold.png", dpi=100)

    fig, ax = plt.subplots(figsize=(6, 4))
    imatch = [r for r in rows if r.method == "i-match"]
    ax.bar([r.params for r in imatch], [r.f1 for r in imatch])
    ax.set(xlabel="normalised IDF range kept", ylabel="sentence-pair F1", title="I-Match F1 against IDF range (cf. Fig. 2)")
    ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(out / "fig2_imatch.png", dpi=100)

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    at_default = sorted((int(r.params[2:]), r.f1) for r in rows if r.method == "low-idf-sig" and abs(r.threshold - 0.6) < 1e-9)
    left.plot(*zip(*at_default), marker="o")
    left.set(xscale="log", xlabel="antecedents n", ylabel="sentence-pair F1", title="Low-IDF-Sig, τ = 0.6")
    for n in ANTECEDENTS:
        series = sorted((r.threshold, r.f1) for r in rows if r.method == "low-idf-sig" and r.params == f"n={n}")
        right.plot(*zip(*series), marker="o", label=f"n={n}")
    right.set(xlabel="threshold τ", ylabel="sentence-pair F1", title="Low-IDF-Sig F1 against τ")
    right.legend()
    fig.tight_layout()
    fig.savefig(out / "fig3_lowidfsig.png", dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goldset", type=Path)
    parser.add_argument("--out", type=Path, default=Path("goldenset/results"))
    args = parser.parse_args()
    rows = run_all(args.goldset)
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row.as_json()) + "\n")
    (args.out / "table1.md").write_text(table1(rows), encoding="utf-8")
    plots(rows, args.out)
    print((args.out / "table1.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
