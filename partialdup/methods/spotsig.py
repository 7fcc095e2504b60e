"""The SpotSig rival method (Theobald, Siddharth and Paepcke, SIGIR 2008).

SpotSigs are built around stopwords ("antecedents"): each occurrence of an
antecedent starts a chain of the next non-stopword tokens. Following the task
statement of this project the antecedent itself is not hashed, only its chain,
so with chains of 2 "is a tour of" and "was a tour of" give the same feature
("tour:of"; "a" is itself a stopword and is skipped inside the chain).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import Collection, Sequence

from partialdup.core.config import SpotSigParams
from partialdup.core.hashing import stable_hash
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.similarity import BagMethod

__all__ = [
    "SpotSig",
    "spotsig_chains",
    "ENGLISH_STOPWORDS",
    "CHINESE_STOPWORDS",
    "SPOTSIG_SMALL",
    "SPOTSIG_FULL",
]


def _words(block: str) -> frozenset[str]:
    return frozenset(block.split())


# The SpotSigs paper takes as antecedents a handful of the most frequent English
# stopwords (articles, forms of "be"/"have"/"do", modals, demonstratives). This
# list follows that idea with 24 words: the 3 articles, 6 forms of "be", 3 of
# "do", 3 of "have", 5 modals, "there", "this", "that" and "it".
_SMALL_ENGLISH = _words(
    """
    a an the is was are were be been do does did has have had will would can could
    should there this that it
    """
)

# So that Chinese sentences have antecedents too, the 8 most frequent Chinese
# function words are added to the small list.
_SMALL_CHINESE = _words("的 了 是 在 和 有 这 那")

#: A full English stopword list of 365 words (pronouns, determiners, auxiliaries
#: and modals, prepositions, conjunctions, common adverbs, number words), written
#: for this project because NLTK's corpora are not available offline.
ENGLISH_STOPWORDS: frozenset[str] = _words(
    """
    a able about above accordingly across actually after afterward afterwards again
    against ago ahead albeit all almost alone along already also although always am amid
    amidst among amongst an and another any anybody anyhow anyone anything anyway
    anywhere apart are around as aside at back be became because become becomes becoming
    been before beforehand behind being below beneath beside besides between beyond both
    but by can cannot certain certainly concerning considering could despite did do does
    doing done down during each eight either eleven else elsewhere enough etc even ever
    every everyone everything everywhere exactly except far few fifteen fifty first five
    following for former formerly forth forty four from further furthermore get gets
    getting go goes going gone got had hardly has have having he hence her here
    hereafter hereby herein hereupon hers herself him himself his hither how however
    hundred i if in including indeed inside instead into is it its itself just last
    lately later latter latterly least less let lets like likely made mainly make makes
    many may maybe me meanwhile merely might mine more moreover most mostly much must my
    myself namely near nearly necessarily neither never nevertheless next nine ninety no
    nobody none noone nor not nothing notwithstanding now nowhere of off often on once
    one only onto opposite or other others otherwise our ours ourselves out outside over
    overall own past per perhaps please plus possibly probably quite rather really
    regarding round said same say says second seem seemed seeming seems seldom seven
    several shall she should simply since six sixty so some somehow someone something
    sometime sometimes somewhat somewhere soon still such ten than that the their theirs
    them themselves then thence there thereafter thereby therefore therein thereof
    thereupon these they third thirty this those though thousand three through
    throughout thru thus till to together too toward towards twelve twenty two under
    underneath unless unlike until unto up upon upward us used using usually versus very
    via was we well were what whatever when whence whenever where whereafter whereas
    whereby wherein whereupon wherever whether which whichever while whilst whither who
    whoever whole whom whomever whose why will with within without would yet you your
    yours yourself yourselves
    """
)

#: Common Chinese (Simplified) function words: particles, pronouns,
#: demonstratives, prepositions, conjunctions, auxiliaries and adverbs, in the
#: word forms jieba produces.
CHINESE_STOPWORDS: frozenset[str] = _words(
    """
    的 地 得 了 着 过 之 其 所 者 们 是 在 和 与 及 以及 并 并且 而 而且 或 或者 还是
    也 也是 都 就 就是 不是 还 还有 又 再 很 最 更 太 非常 不 没 没有 已 已经 曾 曾经
    正在 一直 只 只是 有 会 能 可以 可能 要 应该 将 把 被 给 让 从 对 对于 向 往 由
    于 为 以 比 跟 同 即 便 则 却 乃 因为 所以 因此 如果 虽然 但 但是 然而 同时 通过
    根据 关于 按照 随着 除了 我 你 他 她 它 我们 你们 他们 她们 它们 自己 大家 这 那
    这个 那个 这些 那些 这样 那样 这里 那里 此 该 每 各 其中 其他 之间 一个 一些 一样
    个 些 上 下 中 里 等 等等 之后 以后 以前 之前 时候 什么 怎么 为什么 哪 哪里 谁
    吗 呢 吧 啊 呀 么
    """
)

#: Small antecedent list: the SpotSigs paper's idea (24 English words) plus the
#: 8 most frequent Chinese function words.
SPOTSIG_SMALL: frozenset[str] = _SMALL_ENGLISH | _SMALL_CHINESE

#: Full antecedent list: :data:`ENGLISH_STOPWORDS` and :data:`CHINESE_STOPWORDS`
#: together, so mixed Chinese/English text works with one extractor.
SPOTSIG_FULL: frozenset[str] = ENGLISH_STOPWORDS | CHINESE_STOPWORDS


def spotsig_chains(
    tokens: Sequence[str],
    stopwords: Collection[str],
    *,
    chain: int,
    spacing: int,
) -> list[tuple[str, ...]]:
    """SpotSig features of one sentence, as token tuples (before hashing).

    Every stopword occurrence is an antecedent. Its feature is the next
    ``chain`` non-stopword tokens after it, taken every ``spacing`` tokens
    (stopwords are skipped, not counted); the antecedent itself is left out.
    Near the sentence end the chain is shorter rather than dropped, but an
    antecedent with no non-stopword after it gives no feature (an empty chain
    would be shared by every such sentence).

    Fallbacks, so that every non-empty sentence has at least one feature:

    * a sentence without any stopword uses its first token as the antecedent;
    * a sentence that still has no feature (a single token, or only stopwords
      with nothing after them) gives one feature: all its tokens.

    Args:
        tokens: The sentence's normalised tokens.
        stopwords: The antecedents, also skipped inside chains.
        chain: Number of chained tokens (the paper's c), >= 1.
        spacing: Distance between chained tokens (the paper's d), >= 1.

    Returns:
        One tuple per feature, in sentence order; duplicates are kept.
    """
    if not tokens:
        return []
    content = [i for i, tok in enumerate(tokens) if tok not in stopwords]
    starts = [i for i, tok in enumerate(tokens) if tok in stopwords] or [0]
    features: list[tuple[str, ...]] = []
    for start in starts:
        first_after = bisect_right(content, start)
        follow = content[first_after + spacing - 1 :: spacing][:chain]
        if follow:
            features.append(tuple(tokens[i] for i in follow))
    return features or [tuple(tokens)]


@dataclass(frozen=True, slots=True)
class SpotSig(BagMethod):
    """Feature extractor: hashed SpotSig chains (antecedent not hashed).

    Attributes:
        stopwords: The antecedents, e.g. :data:`SPOTSIG_SMALL` or
            :data:`SPOTSIG_FULL`; stored as a frozenset.
        chain: Number of chained tokens per feature (c), >= 1.
        spacing: Distance between chained tokens (d), >= 1.
        name: Method name used in reports.
    """

    stopwords: frozenset[str]
    chain: int = 3
    spacing: int = 1
    name: str = "spotsig"

    def __post_init__(self) -> None:
        if self.chain < 1 or self.spacing < 1:
            raise ValueError(f"chain and spacing must be >= 1, got {self.chain}, {self.spacing}")
        # a caller may pass a set or list; keep the dataclass immutable
        object.__setattr__(self, "stopwords", frozenset(self.stopwords))

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        """Bag of the sentence's chain hashes (feature hash -> multiplicity).

        Args:
            tokens: The sentence's normalised tokens.
        """
        chains = spotsig_chains(tokens, self.stopwords, chain=self.chain, spacing=self.spacing)
        return Counter(stable_hash(c) for c in chains)


def _build(params: SpotSigParams, idf: object) -> SpotSig:
    return SpotSig(SPOTSIG_FULL if params.stopwords == "full" else SPOTSIG_SMALL, params.chain, params.spacing)


register(MethodSpec("spotsig", "spotsig", _build, preset={"stopwords": "full"}, summary="chains after ~365 stopwords"))
register(MethodSpec("spotsig-small", "spotsig", _build, preset={"stopwords": "small"}, summary="chains after the SpotSigs paper's ~24 stopwords"))
