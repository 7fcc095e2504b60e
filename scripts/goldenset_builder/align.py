"""Natural alignment: the independent labelling procedure of copies that exist between packages.

Sentences of both texts are normalised two ways (:func:`norm_a`,
:func:`norm_b`) and matched monotonically: anchors first, then the short lines
between two anchors; matches chain into spans.  goldenset/README.md
("Natural copies") states the same rule in prose.
"""
from __future__ import annotations

import bisect
from collections import Counter

from .normalise import norm_a, norm_b, ratio
from .text import n_cjk, sentences

__all__ = ["NAT_ROUNDS", "NAT_SPAN_BRIDGE", "nat_prep", "natural_align"]

NAT_SPAN_BRIDGE = 2      # unmatched sentences a natural span may bridge on either side
NAT_ROUNDS = 5
FUZZ_MIN = 95            # fuzz.ratio of two normalised sentences that count as one


def nat_prep(text: str, spans) -> list:
    """Normalised sentences taking part in the alignment.

    Args:
        text: A document text.
        spans: Its sentence spans.

    Returns:
        (sentence index, norm a, norm b, anchor-eligible) for sentences whose
        normalised form has at least 2 characters; anchors have >= 6
        characters with CJK, or >= 20 without.
    """
    out = []
    for i, (a, b) in enumerate(spans):
        t = text[a:b]
        na = norm_a(t)
        if len(na) < 2:
            continue
        nb = norm_b(t)
        out.append((i, na, nb, len(na) >= (6 if n_cjk(na) else 20)))
    return out


def _exact_positions(R, r_idx) -> tuple:
    """{norm a: [positions in r_idx]} and the same for norm b."""
    exact_a: dict = {}
    exact_b: dict = {}
    for p, k in enumerate(r_idx):
        exact_a.setdefault(R[k][1], []).append(p)
        exact_b.setdefault(R[k][2], []).append(p)
    return exact_a, exact_b


def _fuzzy_hit(R, r_idx, na, nb, p0, window):
    """Position of the best fuzz.ratio >= 95 among the next window candidates, or None."""
    best, bp = 0.0, None
    for p in range(p0, min(len(r_idx), p0 + window)):
        _, ra, rb, _ = R[r_idx[p]]
        sc = max(ratio(na, ra, score_cutoff=FUZZ_MIN), ratio(nb, rb, score_cutoff=FUZZ_MIN))
        if sc > best:
            best, bp = sc, p
    return bp if bp is not None and best >= FUZZ_MIN else None


def _greedy_match(S, R, s_idx, r_idx, window) -> list:
    """Monotone greedy matching of S[s_idx] against R[r_idx] (index lists in order).

    An exact match (norm a or b) within the next 4*window candidates wins,
    otherwise the best fuzz.ratio >= 95 within the next window candidates.

    Returns:
        (si, k) pairs: index into S, index into R.
    """
    exact_a, exact_b = _exact_positions(R, r_idx)
    out = []
    p0 = 0
    for si in s_idx:
        _, na, nb, _ = S[si]
        hit = None
        for lst in (exact_a.get(na, ()), exact_b.get(nb, ())):
            j = bisect.bisect_left(lst, p0)
            if j < len(lst) and lst[j] < p0 + window * 4:
                hit = lst[j] if hit is None else min(hit, lst[j])
        if hit is None:
            hit = _fuzzy_hit(R, r_idx, na, nb, p0, window)
        if hit is not None:
            out.append((si, r_idx[hit]))
            p0 = hit + 1
    return out


def _nat_round(S, R, s_avail, window) -> tuple:
    """One round: anchors among the available susp sentences, then the gap fill."""
    anchors = _greedy_match(S, R, [x for x in s_avail if S[x][3]],
                            [x for x in range(len(R)) if R[x][3]], window)
    aset_s = {si for si, _ in anchors}
    aset_r = {k for _, k in anchors}
    matches = []
    bounds = [(-1, -1)] + anchors + [(len(S), len(R))]
    for (i0, k0), (i1, k1) in zip(bounds, bounds[1:]):
        if i0 >= 0:
            matches.append((i0, k0))
        gi = [x for x in s_avail if i0 < x < i1 and x not in aset_s]
        gk = [x for x in range(k0 + 1, k1) if x not in aset_r]
        if gi and gk:
            matches += _greedy_match(S, R, gi, gk, window)
    return matches, aset_s


def _chain(matches, done) -> list:
    """Group matches into spans: each span a list of (si, k).

    A match joins the previous span while at most NAT_SPAN_BRIDGE unmatched
    sentences lie between them on each side and none of the bridged susp
    sentences was labelled in an earlier round.
    """
    spans: list = []
    for si, k in matches:
        if spans:
            li, lk = spans[-1][-1]
            if si - li - 1 <= NAT_SPAN_BRIDGE and k - lk - 1 <= NAT_SPAN_BRIDGE \
                    and not any(x in done for x in range(li + 1, si)):
                spans[-1].append((si, k))
                continue
        spans.append([(si, k)])
    return spans


def _is_placeless(m, S, R, s_count, r_count) -> bool:
    # A span of one sentence whose normalised form recurs in either text
    # (尝试下列例子, "Try the following examples", after every example
    # block) has no place: which occurrence copies which is not in the
    # text, and such a line alone is no evidence of a copy.
    return len(m) == 1 and (s_count[S[m[0][0]][1]] > 1 or r_count[R[m[0][1]][1]] > 1)


def _span_record(m, S, R, ss, rs) -> dict:
    pairs = [(ss[S[si][0]], rs[R[k][0]]) for si, k in m]
    return {"pairs": pairs, "susp": (pairs[0][0][0], pairs[-1][0][1]),
            "src": (pairs[0][1][0], pairs[-1][1][1])}


def natural_align(susp_text: str, src_text: str, window: int = 60) -> tuple:
    """Monotone matching of normalised sentences.

    In each round: anchors are the sentences of >= 6 CJK / >= 20 normalised
    characters, matched in monotone order; then every other sentence with a
    normalised form of >= 2 characters is matched by the same rule inside the gap
    between two consecutive anchors (or the document start/end).  Matched
    sentences form one span while at most NAT_SPAN_BRIDGE unmatched sentences lie
    between two matches on each side.  Later rounds align the susp sentences left
    unmatched (a passage quoted out of order or twice) and keep only spans that
    contain an anchor.  A span of a single sentence whose normalised form occurs
    more than once in either text is dropped in every round.

    Args:
        susp_text: The text that may contain the copy.
        src_text: The text it may copy.
        window: How many source candidates a fuzzy match looks ahead (exact: 4x).

    Returns:
        (spans, n_anchor_eligible_susp, n_anchor_matches); each span is
        dict(susp=(s,e), src=(s,e), pairs=[((s,e),(s,e)), ...]), sorted by susp offset.
    """
    ss, rs = sentences(susp_text), sentences(src_text)
    S, R = nat_prep(susp_text, ss), nat_prep(src_text, rs)
    s_count = Counter(x[1] for x in S)
    r_count = Counter(x[1] for x in R)
    done: set = set()
    spans = []
    n_anchor = 0
    for rnd in range(NAT_ROUNDS):
        matches, anchors = _nat_round(S, R, [x for x in range(len(S)) if x not in done], window)
        cur = _chain(matches, done)
        if rnd:
            cur = [m for m in cur if any(si in anchors for si, _ in m)]
        if not cur:
            break
        for m in cur:
            # A placeless line is set aside like a labelled sentence, so the
            # rounds run as without it.
            done.update(si for si, _ in m)
            if _is_placeless(m, S, R, s_count, r_count):
                continue
            n_anchor += sum(1 for si, _ in m if si in anchors)
            spans.append(_span_record(m, S, R, ss, rs))
    spans.sort(key=lambda sp: sp["susp"])
    return spans, sum(1 for x in S if x[3]), n_anchor
