"""The method plug-in protocol and the registry of methods by name.

A *method* turns one sentence's normalised tokens into a *fingerprint*, says
how two fingerprints are compared, and how a collection of them is searched
for the pairs that may be copies. Everything else (sentences, tokens,
character checks, sequence matching, refinement, output) is shared by every
method. A method is registered with :func:`register` under a name, with its
parameters (a :class:`~partialdup.core.config.MethodParams` field of
:class:`~partialdup.core.config.Config`, default threshold included) and,
optionally, a preset of those parameters (``4-shingle`` is k-Shingle with
k = 4).

The protocol, and how the methods of the literature fit it:

* **Bags of features** (Low-IDF-Sig, k-Shingle, I-Match, SpotSig, word-set
  Jaccard, pinyin codes): the fingerprint is a bag, hash -> multiplicity;
  :meth:`Method.similarity` is bag-Jaccard (Σmin / Σmax); the search is the
  inverted feature index (:mod:`partialdup.index`), which only compares
  sentences sharing a feature and scores them exactly. ``search_kind`` is
  ``"bag"``.
* **Rescored word sets and sketches** (short-text Jaccard, cosine, MinHash
  with one hash function): the fingerprint is a bag too, the inverted index
  finds the candidates with a rule that keeps every pair whose score can
  reach τ (``candidate_rule``), and the method rescores them
  (``pair_scores``). ``search_kind`` ``"set"``.
* **SimHash** (64-bit, Hamming distance ≤ k): the fingerprint is one 64-bit
  integer of the weighted tokens; :meth:`similarity` is ``1 - hamming / 64``
  (a threshold τ is a Hamming bound ``k = floor((1 - τ) * 64)``); the search
  is a set of permuted tables: the 64 bits cut into k + 1 blocks, one table
  per block keyed by that block, so two fingerprints within k bits agree
  exactly on at least one block and meet in that table's bucket (no full
  scan). ``search_kind`` ``"simhash"``; the candidate index is its own
  class beside the inverted index, with the same ``search(queries, rule) ->
  PairMatches`` contract, so sequence matching sees the same pairs.
* **MinHash + LSH**: the fingerprint is a signature of m minimum hash values
  (a NumPy array); :meth:`similarity` is the share of equal positions (the
  Jaccard estimate); the search cuts signatures into b bands of r rows
  (b · r = m, chosen so that the S-curve's threshold is near τ) and makes
  candidates of sentences that share a whole band, then scores them by
  :meth:`similarity`. ``search_kind`` ``"lsh"``.
* **An exact first stage** (Bloom filter or Trie over hashed digits): not a
  method of its own but a stage option; its fingerprint is the digest of the
  normalised sentence, :meth:`similarity` is 1.0 or 0.0, and its "index" is
  a membership structure answering "seen before?" with a measured false
  positive rate; exact duplicates it finds are paired before the
  near-duplicate method searches the rest.

A method whose fingerprints are not bags still hands the pipeline a bag per
sentence: it encodes its fingerprint as one (SimHash ``{fingerprint: 1}``,
a MinHash signature ``{position << 56 | value: 1}``; see each module), so
documents and the pipeline carry it unchanged. The detector builds the
index its ``search_kind`` names (:func:`partialdup.index.dispatch.sentence_index`,
:mod:`partialdup.index.fingerprints`), which decodes the fingerprints and
hands back the same :class:`~partialdup.index.sparse.PairMatches` (query,
key, score, shared) the bag methods do, so sequence matching does not need
to know which kind it runs. The stages that look below τ (near misses,
embedded sentences, edited copies) run only where the index can do so at a
reasonable cost (:data:`LOOSE_SEARCH_KINDS`); the exact stage is
``--exact bloom|trie`` in front of any index
(:mod:`partialdup.index.exact_first`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar

from partialdup.core.config import Config, MethodParams
from partialdup.core.errors import ConfigError

__all__ = [
    "Method",
    "MethodSpec",
    "register",
    "method_names",
    "method_spec",
    "method_params",
    "resolved_threshold",
    "build_method",
    "LOOSE_SEARCH_KINDS",
    "searches_below_threshold",
]

#: Search kinds whose index can look below τ at reasonable cost: the
#: inverted index of bags or word sets. The stages that do (near misses,
#: sentences embedded in longer ones, edited copies) run only for these: for
#: a SimHash, half of τ is a Hamming bound of about 32 bits (every pair a
#: candidate); for LSH at τ = 0.1, one row per band (every pair sharing one
#: minimum value).
LOOSE_SEARCH_KINDS = frozenset({"bag", "set"})


def searches_below_threshold(method: "Method") -> bool:
    """Whether the near-miss, embedded and edited-copy stages apply to a method."""
    return method.search_kind in LOOSE_SEARCH_KINDS

P = TypeVar("P", bound=MethodParams)


class Method(Protocol):
    """A fingerprint method: tokens in, a fingerprint out.

    Attributes:
        name: The method's name in reports (``"low-idf-sig"``, ...).
        search_kind: How a collection of its fingerprints is searched
            (``"bag"``: the inverted feature index; see the module notes for
            ``"simhash"`` and ``"lsh"``).
    """

    @property
    def name(self) -> str:
        ...

    @property
    def search_kind(self) -> str:
        ...

    def bag(self, tokens: Sequence[str]) -> Mapping[int, int]:
        """The sentence's fingerprint: for the bag methods, feature hash -> multiplicity."""
        ...

    def similarity(self, first: Mapping[int, int], second: Mapping[int, int]) -> float:
        """How alike two fingerprints are, 0..1 (the plain reference of the index's scores)."""
        ...


#: Builds a method from its parameters and the IDF table (antecedents, filters).
Builder = Callable[[Any, Any], Method]


@dataclass(frozen=True)
class MethodSpec(Generic[P]):
    """A registered method.

    Attributes:
        name: Its name (``--method NAME``).
        params_field: The :class:`Config` field holding its parameters.
        build: ``build(params, idf)`` makes the method.
        preset: Parameters this name fixes (``{"k": 4}`` for ``4-shingle``).
        summary: One line for ``--help`` and the README's table.
        resolve: Derives parameters from others after the preset (SimHash's
            τ follows ``--hamming``); None leaves them as they are.
    """

    name: str
    params_field: str
    build: Builder
    preset: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    summary: str = ""
    resolve: Callable[[Any], Any] | None = None


_REGISTRY: dict[str, MethodSpec] = {}


def register(spec: MethodSpec) -> MethodSpec:
    """Add a method to the registry (its name must be new)."""
    if spec.name in _REGISTRY:
        raise ValueError(f"method {spec.name!r} is registered twice")
    if spec.params_field not in Config.METHOD_FIELDS:
        raise ValueError(f"method {spec.name!r}: Config has no parameters {spec.params_field!r}")
    _REGISTRY[spec.name] = spec
    return spec


def _loaded() -> dict[str, MethodSpec]:
    # The method modules register themselves when imported; importing the
    # package imports them all (see partialdup/methods/__init__.py).
    import partialdup.methods  # noqa: F401

    return _REGISTRY


def method_names() -> tuple[str, ...]:
    """The registered method names, in registration order."""
    return tuple(_loaded())


def method_spec(name: str) -> MethodSpec:
    """The registered method of that name; :class:`ConfigError` naming the choices otherwise."""
    specs = _loaded()
    if name not in specs:
        raise ConfigError(f"unknown method {name!r}; choose from {', '.join(specs)}")
    return specs[name]


def method_params(config: Config, name: str | None = None) -> MethodParams:
    """The parameters a method runs with: the config's nested ones, with the name's preset."""
    spec = method_spec(name or config.method)
    params = dataclasses.replace(getattr(config, spec.params_field), **spec.preset)
    return spec.resolve(params) if spec.resolve is not None else params


def resolved_threshold(config: Config, name: str | None = None) -> float:
    """τ of a run: :attr:`Config.threshold`, or the method's own default when None."""
    return config.threshold if config.threshold is not None else method_params(config, name).threshold


def build_method(config: Config, idf: Any, name: str | None = None) -> Method:
    """The method named by ``name`` (default ``config.method``) with the config's parameters."""
    spec = method_spec(name or config.method)
    return spec.build(method_params(config, spec.name), idf)
