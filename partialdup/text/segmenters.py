"""Chinese word segmenters behind one interface: jieba (the reference) and rjieba.

A :class:`Segmenter` cuts runs of Han characters into words, in accurate
mode with the HMM for unknown words, as ``jieba.cut(run, HMM=True)`` does for
each run, or in jieba's full or search mode (``--jieba-mode``, see
:data:`MODES`; their words overlap, :meth:`Segmenter.segment_located` says
where each starts). Two backends:

* ``jieba``: the pure-Python jieba, the reference. Its prefix dictionary is
  cached on disk per user (:func:`jieba_cache_dir`).
* ``rjieba``: the binding of jieba-rs, the Rust port of the same algorithm
  and the same dictionary (about ten times as fast, and no cache needed: the
  dictionary is compiled in and loads in a fifth of a second).

Calling a segmenter once per Han run can cost more than segmenting on
punctuation-dense text (news prose has a run every few characters), so
:meth:`Segmenter.segment` can cut all the runs of a sentence in one call: the
runs joined by line breaks (rjieba does; for jieba, whose cost is per block
inside jieba, it measured slower, see ``Segmenter.one_call``). jieba cuts its input into blocks of the
characters ``[\\u4e00-\\u9fd5a-zA-Z0-9+#&._%-]`` first and segments each block
on its own; a line break is no block character, so the words of the joined
runs are the words of each run, one after the other (the runs hold Han
characters only, so jieba's Latin and digit block characters never meet
them). A Han run's characters outside ``\\u4e00-\\u9fd5`` (Extension A, B..., the
compatibility ideographs) are words of their own in jieba; jieba-rs would
give them to its dictionary and HMM, so they are set apart here before either
backend sees them: both backends see the same blocks.

:meth:`Segmenter.segment_each` is the plain reference (one call per run);
tests prove the two agree. Where the words of a run lie (its blocks, the
joined call cut back, the starts of overlapping words) is
:mod:`partialdup.text.word_layout`.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import logging
import os
import sys
from importlib import metadata
from typing import Any, Callable, Sequence

from partialdup.core.errors import ConfigError
from partialdup.text.diskcache import cache_path, read_cached, user_cache_dir, write_cached
from partialdup.text.word_layout import JOIN, assembled_runs, layouts, located, split_joined, uneven_layouts, word_starts

__all__ = ["Segmenter", "JiebaSegmenter", "RjiebaSegmenter", "SEGMENTERS", "MODES", "make_segmenter", "jieba_cache_dir"]

#: jieba's segmentation modes, as ``--jieba-mode`` takes them: ``accurate``
#: (``cut``: a partition of the run), ``full`` (``cut(cut_all=True)``: every
#: dictionary word, overlapping) and ``search`` (``cut_for_search``: the
#: accurate words, each long one preceded by the dictionary words of two and
#: three characters inside it).
MODES = ("accurate", "full", "search")

class Segmenter:
    """Cuts Han runs into words (accurate mode, HMM on); see the module notes.

    Subclasses provide :meth:`_cut` (one call of the backend) and set
    :attr:`name`.
    """

    #: The backend's name, as ``--segmenter`` takes it.
    name = ""
    #: Whether :meth:`segment` gives all blocks to the backend in one call
    #: (else one call per block), chosen by measurement for each backend.
    one_call = True
    #: The segmentation mode (see :data:`MODES`).
    mode = "accurate"
    #: Whether full mode gives every character as a word too (jieba-rs), or
    #: only those no longer word reaches (jieba); see :func:`word_starts`.
    full_every_char = False

    #: The backend, made by :meth:`_made_backend` when first needed (see :meth:`load`).
    _backend: Any = None

    def load(self) -> None:
        """Load the backend's dictionary now, not on the first cut (a
        process forked afterwards inherits it instead of loading its own)."""
        self._jieba  # noqa: B018

    @property
    def loaded(self) -> bool:
        """Whether the backend's dictionary is loaded (see :meth:`load`)."""
        return self._backend is not None

    def unload(self) -> None:
        """Let the backend and its dictionary go: the next cut loads them again."""
        self._backend = None

    @property
    def _jieba(self) -> Any:
        # The dictionary (0.15 s for rjieba) is loaded when first needed:
        # text without Han characters never needs it.
        if self._backend is None:
            self._backend = self._made_backend()
        return self._backend

    def _made_backend(self) -> Any:
        """The backend, its dictionary loaded (None: a backend without one)."""
        return None

    @property
    def version(self) -> str:
        """The backend's package and version (recorded by stores)."""
        try:
            return f"{self.name} {metadata.version(self.name)}"
        except metadata.PackageNotFoundError:
            return f"{self.name} unknown"

    def segment(self, runs: Sequence[str]) -> list[tuple[str, ...]]:
        """The words of each run (Han characters only, no white space), with
        one backend call for all of them."""
        blocks, uneven = uneven_layouts(runs)
        words = self._cut_blocks(blocks)
        return assembled_runs(len(runs), uneven, words) if uneven else words

    def segment_located(self, runs: Sequence[str]) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """The words of each run in this segmenter's mode, and where each
        starts in its run (words overlap in the ``full`` and ``search`` modes)."""
        blocks, found = layouts(runs)
        laid: list[list[int | str]] = found if found is not None else [[number] for number in range(len(blocks))]
        words = [tuple(self._cut(block)) for block in blocks]
        accurate = [tuple(self._cut_accurate(block)) for block in blocks] if self.mode == "search" else words
        starts = [
            word_starts(block, cut, self.mode, plain, self.full_every_char)
            for block, cut, plain in zip(blocks, words, accurate)
        ]
        return [located(layout, words, starts, blocks) for layout in laid]

    def segment_each(self, runs: Sequence[str]) -> list[tuple[str, ...]]:
        """The reference for :meth:`segment`: one backend call per run."""
        return [tuple(self._cut(run)) for run in runs]

    def _cut_blocks(self, blocks: Sequence[str]) -> list[tuple[str, ...]]:
        if len(blocks) <= 1 or not self.one_call or self.mode != "accurate":
            return [tuple(self._cut(block)) for block in blocks]
        text = JOIN.join(blocks)
        cut = split_joined(self._cut(text), blocks, text)
        # Never expected (a backend joining a word across the line break):
        # then the blocks are cut one by one, as the reference does.
        return cut if cut is not None else [tuple(self._cut(block)) for block in blocks]

    def _cut(self, text: str) -> list[str]:
        """One backend call in this segmenter's mode."""
        if self.mode == "full":
            return self._cut_full(text)
        if self.mode == "search":
            return self._cut_search(text)
        return self._cut_accurate(text)

    def _cut_accurate(self, text: str) -> list[str]:
        raise NotImplementedError

    def _cut_full(self, text: str) -> list[str]:
        raise NotImplementedError

    def _cut_search(self, text: str) -> list[str]:
        raise NotImplementedError


class JiebaSegmenter(Segmenter):
    """The pure-Python jieba, the reference backend.

    Args:
        dictionary: Path to a jieba main dictionary; jieba's own when None.
        extra_words: ``(word, frequency)`` pairs added to the dictionary.
        mode: The segmentation mode (see :data:`MODES`).
    """

    name = "jieba"
    # jieba's cost is per block inside jieba (get_DAG, calc), not per call:
    # on the gold set's sentences (3.1 Han runs each) one call for all was
    # 16 % slower than one per block (1.44 s against 1.23 s of CPU), the
    # joined text's separators being blocks of their own to jieba.
    one_call = False

    def __init__(
        self, dictionary: str | None = None, extra_words: Sequence[tuple[str, int]] = (), mode: str = "accurate"
    ) -> None:
        import jieba  # a missing jieba is told at once

        self.mode = mode
        self._dictionary = dictionary
        self._extra_words = tuple(extra_words)

    def _made_backend(self) -> Any:
        import jieba

        logging.getLogger("jieba").setLevel(logging.WARNING)  # no start-up chatter
        backend = jieba.Tokenizer(self._dictionary or jieba.DEFAULT_DICT)
        path = self._dictionary or os.path.join(os.path.dirname(jieba.__file__), jieba.DEFAULT_DICT_NAME)
        _load_prefix_dictionary(backend, path)
        for word, frequency in self._extra_words:
            backend.add_word(word, frequency)
        return backend

    def _cut_accurate(self, text: str) -> list[str]:
        return list(self._jieba.cut(text, HMM=True))

    def _cut_full(self, text: str) -> list[str]:
        return list(self._jieba.cut(text, cut_all=True))

    def _cut_search(self, text: str) -> list[str]:
        return list(self._jieba.cut_for_search(text, HMM=True))


class RjiebaSegmenter(Segmenter):
    """jieba-rs through its Python binding ``rjieba``: jieba's algorithm and
    dictionary, in Rust.

    Args:
        dictionary: Must be None: rjieba loads only the dictionary compiled
            into it (jieba's ``dict.txt``).
        extra_words: ``(word, frequency)`` pairs added to the dictionary.
        mode: The segmentation mode (see :data:`MODES`).

    Raises:
        ConfigError: rjieba is not installed, or a dictionary file was given.
    """

    name = "rjieba"
    full_every_char = True
    # One call into Rust for all blocks: 0.212 s against 0.225 s of CPU for
    # the gold set's sentences alone; inside the tokenizer, where most runs
    # are remembered, the two are equal (2.07 s against 2.04 s for the whole
    # gold set). Kept for text with many new runs per sentence (news).
    one_call = True

    def __init__(
        self, dictionary: str | None = None, extra_words: Sequence[tuple[str, int]] = (), mode: str = "accurate"
    ) -> None:
        self.mode = mode
        if dictionary is not None:
            raise ConfigError("--segmenter rjieba: a jieba dictionary file cannot be loaded (use --segmenter jieba)")
        self._class = _rjieba_class()  # a missing rjieba is told at once
        self._extra_words = tuple(extra_words)

    def _made_backend(self) -> Any:
        backend = self._class()
        for word, frequency in self._extra_words:
            backend.add_word(word, frequency, None)
        return backend

    def _cut_accurate(self, text: str) -> list[str]:
        return self._jieba.cut(text, True)  # type: ignore[no-any-return]

    def _cut_full(self, text: str) -> list[str]:
        # jieba-rs gives every character at its place, but not one outside its
        # dictionary (帢 in 彖帢); jieba gives it alone. Put those back, in order.
        words: list[str] = self._jieba.cut_all(text)
        starts = word_starts(text, words, "full", (), True)
        given = set(starts)
        missing = [k for k in range(len(text)) if k not in given]
        if not missing:
            return words
        placed = sorted([*zip(starts, range(len(words)), words), *((k, -1, text[k]) for k in missing)])
        return [word for _, _, word in placed]

    def _cut_search(self, text: str) -> list[str]:
        return self._jieba.cut_for_search(text, True)  # type: ignore[no-any-return]


def _rjieba_class() -> Any:
    """rjieba's ``Jieba`` class, from its compiled module.

    The package's ``__init__`` builds a default ``Jieba`` (the whole
    dictionary, 0.15 s of every start) that partialdup never uses: it makes
    its own, with the Taiwan words added. So the compiled module is loaded
    by itself when it can be found, and through the package otherwise.

    Raises:
        ConfigError: rjieba is not installed.
    """
    try:
        spec = importlib.util.find_spec("rjieba")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise ConfigError("--segmenter rjieba needs the rjieba package (pip install rjieba)")
    module = sys.modules.get("rjieba.rjieba") or _compiled_module(spec)
    if module is None:
        import rjieba as module
    return module.Jieba


def _compiled_module(spec: Any) -> Any:
    folders = list(spec.submodule_search_locations or ())
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for folder in folders:
        with contextlib.suppress(OSError):
            for name in sorted(os.listdir(folder)):
                if name.startswith("rjieba.") and name.endswith(suffixes):
                    compiled = importlib.util.spec_from_file_location("rjieba.rjieba", os.path.join(folder, name))
                    if compiled is None or compiled.loader is None:
                        return None
                    module = importlib.util.module_from_spec(compiled)
                    compiled.loader.exec_module(module)
                    # Loaded once: a later `import rjieba` finds it here.
                    sys.modules["rjieba.rjieba"] = module
                    return module
    return None


#: The backends, by their ``--segmenter`` name.
SEGMENTERS: dict[str, Callable[[str | None, Sequence[tuple[str, int]], str], Segmenter]] = {
    "rjieba": RjiebaSegmenter,
    "jieba": JiebaSegmenter,
}


def make_segmenter(
    name: str, *, dictionary: str | None = None, extra_words: Sequence[tuple[str, int]] = (), mode: str = "accurate"
) -> Segmenter:
    """The segmenter called ``name`` (see :data:`SEGMENTERS`), loaded, cutting
    in ``mode`` (see :data:`MODES`).

    Raises:
        ConfigError: An unknown name or mode, or a backend that cannot be loaded.
    """
    backend = SEGMENTERS.get(name)
    if backend is None:
        raise ConfigError(f"--segmenter must be one of {', '.join(SEGMENTERS)}, got {name!r}")
    if mode not in MODES:
        raise ConfigError(f"--jieba-mode must be one of {', '.join(MODES)}, got {mode!r}")
    return backend(dictionary, extra_words, mode)


# jieba's prefix dictionary, cached on disk per user ----------------------

#: The folder of jieba's dictionary cache (see :mod:`partialdup.text.diskcache`).
jieba_cache_dir = user_cache_dir


def _load_prefix_dictionary(tokenizer: Any, dictionary: str) -> None:
    """Give a ``jieba.Tokenizer`` its prefix dictionary: from the user's
    cache when there is a good one, else built from ``dictionary`` and cached.

    Done here rather than by ``jieba.Tokenizer.initialize``, which keeps one
    cache for every user in ``/tmp`` and logs a traceback when it cannot write
    it.
    """
    cache = cache_path("jieba", [dictionary])
    loaded = read_cached(cache)
    good = isinstance(loaded, tuple) and len(loaded) == 2 and isinstance(loaded[0], dict) and isinstance(loaded[1], int)
    if not good:
        with open(dictionary, "rb") as source:
            loaded = tokenizer.gen_pfdict(source)
        write_cached(cache, loaded)
    tokenizer.FREQ, tokenizer.total = loaded
    tokenizer.initialized = True
