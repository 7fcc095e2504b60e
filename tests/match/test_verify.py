import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.config import Config
from partialdup.match.verify import LETTERS_OF_WORDS, NUMBERED_HEADING, NearMissCheck, letter_flags, words_letters

DEFAULT_MIN_RATIO, DEFAULT_MIN_INSIDE = Config().near_ratio, Config().embedded_ratio
from partialdup.core.types import DocumentFeatures, Sentence


@pytest.fixture(scope="module")
def check(tokenizer):
    return NearMissCheck(tokenizer.normalise, DEFAULT_MIN_RATIO)


def whole(text):
    return Sentence(0, 0, len(text))


def test_letters_are_normalised_and_without_punctuation(check):
    # Full width and Traditional script compare equal to their plain forms.
    assert check.letters("ＢＩＯＳ／ＵＥＦＩ 設定", whole("ＢＩＯＳ／ＵＥＦＩ 設定")) == "biosuefi设定"


@pytest.mark.parametrize(
    "first, second, same",
    [
        ("从一个过程中返回", "从一个过程中返返回", True),  # a character doubled (manpages-zh return(3tcl))
        ("提供基本的虚拟化环境足够能在里面编译程序", "提供后本的虚拟化环境足够能在里面编译程序", True),  # one replaced
        ("显示版本信息并退出", "显示帮助信息并退出", False),  # template sentences about different things
        ("", "", False),
    ],
)
def test_same_at_the_default_ratio(check, first, second, same):
    assert check.same(first, second) == same


@pytest.mark.parametrize("ratio, inside", [(0.0, 0.0), (-1.0, 95.0), (90.0, 101.0)])
def test_the_ratios_are_checked(tokenizer, ratio, inside):
    with pytest.raises(ValueError):
        NearMissCheck(tokenizer.normalise, ratio, inside)


def test_the_embedded_look_is_off_unless_asked(tokenizer):
    check = NearMissCheck(tokenizer.normalise, DEFAULT_MIN_RATIO)
    assert (check.min_ratio, check.min_inside) == (DEFAULT_MIN_RATIO, 0.0)


def letters_of(check, tokenizer, text):
    return check.sentence_letters(text, whole(text), len(tokenizer.words(text, 0, len(text))))


@pytest.fixture(scope="module")
def inside(tokenizer):
    return NearMissCheck(tokenizer.normalise, 0.0, DEFAULT_MIN_INSIDE)


@pytest.mark.parametrize(
    "shorter, longer, embedded",
    [
        # A sentence of manpages-zh systemd-escape(1) glued, in Traditional
        # script, to an English sentence of the debian-handbook (zh-CN).
        (
            "systemd-escape 可用于 转义单元名称中的特殊字符， 也可用于还原操作。",
            "reducing the system to CUPS plus cups-filters.systemd-escape 可用於 轉義單元名稱中的特殊字符， 也可用於還原操作。",
            True,
        ),
        # A numbered heading inside a sentence is a cross-reference (debian-handbook).
        (
            "9.2.1.4.\u00a0Creating Encrypted Tunnels with Port Forwarding",
            "This is explained in Section\u00a09.2.1.4, “Creating Encrypted Tunnels with Port Forwarding”, which covers it.",
            False,
        ),
        # Four tokens of SQL are no evidence (manpages-zh insert(7)).
        ("INSERT INTO table (column, ...)", "INSERT INTO table [ ( column [, ...] ) ] VALUES ( expression [, ...] )", False),
        # Of similar length: a whole copy with edits, judged by ratio alone.
        (
            "systemd-escape 可用于 转义单元名称中的特殊字符， 也可用于还原操作。",
            "systemd-escape 可用于 转义单元名称中的特殊字符， 也可以用于还原操作。",
            False,
        ),
    ],
)
def test_embedded_copies(inside, tokenizer, shorter, longer, embedded):
    first, second = letters_of(inside, tokenizer, shorter), letters_of(inside, tokenizer, longer)
    assert inside.embedded(first, second) == embedded
    assert inside.embedded(second, first) == embedded  # either order
    assert inside.copied(first, second) == embedded  # ratio is off here


def test_embedded_copies_can_be_turned_off(tokenizer, check):
    shorter = "systemd-escape 可用于 转义单元名称中的特殊字符， 也可用于还原操作。"
    longer = "reducing the system to CUPS plus cups-filters." + shorter
    assert not check.embedded(letters_of(check, tokenizer, shorter), letters_of(check, tokenizer, longer))


@pytest.mark.parametrize(
    "first, second, confirmed",
    [
        # One shared chain, different sentences (fortunes-zh, manpages-zh ls(1)).
        ("也可以使用 CD-ROM/DVD 。", "也可以使用二进制前缀：KiB=K、MiB=M，以此类推。", False),
        # A short line of Debian Reference glued to a sentence of manpages-zh
        # close(3tcl) (gold set): no minimum length, the features already matched.
        ("防止未经授权的文件访问", "防止未经授权的文件访问关于通道共享的描述请参见  interp  命令。", True),
        ("防止未经授权的文件访问", "防止未经授权的文件访问", True),
    ],
)
def test_confirmed(tokenizer, check, first, second, confirmed):
    both = NearMissCheck(tokenizer.normalise, DEFAULT_MIN_RATIO, DEFAULT_MIN_INSIDE)
    a, b = letters_of(both, tokenizer, first), letters_of(both, tokenizer, second)
    assert both.confirmed(a, b) == confirmed
    assert check.confirmed(a, b) == (first == second)  # ratio alone: whole copies only


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_letters_are_the_alphanumeric_characters(tokenizer, text):
    check = NearMissCheck(tokenizer.normalise, DEFAULT_MIN_RATIO)
    normalised, _ = tokenizer.normalise(text)
    assert check.letters(text, whole(text)) == "".join(char for char in normalised if char.isalnum())


def test_letter_flags_tell_where_the_words_give_the_letters(tokenizer, check):
    # Lines of manpages-zh and the Debian handbook: Simplified text, a
    # Traditional one whose words change usage (網際網路 becomes 互联网, its
    # letters only 网际网路), and a numbered heading.
    lines = ["即使指定了 -force ，尝试覆写一个非空目录。", "RFC 2026 定義網際網路協定標準化的程序。", "9.2.1.4. 使用端口转发创建加密隧道"]
    text = "\n".join(lines)
    starts = [0, len(lines[0]) + 1, len(lines[0]) + len(lines[1]) + 2]
    sentences = tuple(Sentence(i, start, start + len(line)) for i, (start, line) in enumerate(zip(starts, lines)))
    words = tuple(tokenizer.sentence_words(text, [(s.start, s.end) for s in sentences]))
    doc = DocumentFeatures("d", sentences, ({},) * 3, (1,) * 3, text, words=words)
    flags = letter_flags(doc, tokenizer.normalise)
    assert flags == [LETTERS_OF_WORDS, 0, LETTERS_OF_WORDS | NUMBERED_HEADING]
    for sentence, sentence_words, flag in zip(sentences, words, flags):
        same = words_letters(sentence_words) == check.letters(text, sentence)
        assert same == bool(flag & LETTERS_OF_WORDS)
    # Without words, every letter is read from the text.
    assert letter_flags(DocumentFeatures("d", sentences, ({},) * 3, (1,) * 3, text), tokenizer.normalise) == [0, 0, NUMBERED_HEADING]


@pytest.fixture(scope="module")
def sample_features(tokenizer, idf):
    from partialdup.core.types import Document
    from partialdup.pipeline.factory import make_detector
    from tests.paths import SAMPLES

    detector = make_detector("low-idf-sig", idf, tokenizer=tokenizer)
    names = ["man_ls.1.zh_CN.txt", "man_ls.1.zh_TW.txt", "debian-reference.debref_zhcn_ch01_s02_p0.txt",
             "fortunes-zh.fortuneszh_chinese_debref_ch01.txt", "GPL-2.txt"]
    return [detector.features(Document(n, (SAMPLES / n).read_text(encoding="utf-8"))) for n in names]


def _records(first_docs, second_docs, step):
    # Every step-th pair of the first 60 sentences of the documents: whole
    # copies (zh_CN / zh_TW man pages), embedded ones (Debian Reference quoted
    # by fortunes-zh) and unrelated sentences, in every length relation; and
    # each sentence with the sentence at its place on the other side (itself,
    # in one set of documents).
    keys = lambda docs: [(d, s) for d, doc in enumerate(docs) for s in range(min(len(doc.sentences), 60))]  # noqa: E731
    pairs = [(a, b) for a in keys(first_docs) for b in keys(second_docs)][::step]
    pairs += [(a, a) for a in keys(first_docs) if a[1] < len(second_docs[a[0]].sentences)]
    # Where fortunes-zh quotes Debian Reference inside longer sentences (its
    # sentences 249 and 251 hold 99 to 102 of Debian Reference, 1.74 to 3.2
    # times their letters), both ways round.
    reference = next(d for d, doc in enumerate(first_docs) if doc.id.startswith("debian-reference"))
    fortunes = next(d for d, doc in enumerate(second_docs) if doc.id.startswith("fortunes-zh"))
    window = [((reference, i), (fortunes, m)) for i in range(90, 115) for m in range(235, 265)]
    pairs += window + [(b, a) for a, b in window if first_docs is second_docs]
    return [(a, b, 0.4) for a, b in pairs]


def _check_and_documents(tokenizer, sample_features, ratio, inside, textless):
    # A check at these ratios (the embedded look on when both are off) and
    # the sample documents, the first without its text when `textless`.
    import dataclasses

    check = NearMissCheck(tokenizer.normalise, ratio, inside if (ratio or inside) else 95.0)
    docs = list(sample_features)
    if textless:
        docs[0] = dataclasses.replace(docs[0], text=None)
    return check, docs


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([0.0, 50.0, 85.5, 90.0, 100.0]), st.sampled_from([0.0, 80.0, 95.0]), st.booleans(), st.integers(20, 80))
def test_accepted_gives_what_the_plain_loop_gives(tokenizer, sample_features, ratio, inside, one_set, step):
    if not (ratio or inside):
        inside = 95.0
    check = NearMissCheck(tokenizer.normalise, ratio, inside)
    first_docs = sample_features
    second_docs = sample_features if one_set else sample_features[::-1]
    records = _records(first_docs, second_docs, step)
    accepted = check.accepted(records, first_docs, second_docs)
    assert accepted == check.accepted_plain(records, first_docs, second_docs)
    if one_set and ratio:
        assert len(accepted) > 200  # every sentence with itself
    if not ratio:
        assert len(accepted) >= 4  # the quotations


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from([0.0, 50.0, 85.5, 100.0]), st.sampled_from([0.0, 80.0, 95.0]), st.booleans(), st.integers(20, 80),
    st.sampled_from([5, 97, 1 << 16]), st.booleans(),
)
def test_accepted_on_arrays_gives_what_the_plain_loop_gives(tokenizer, sample_features, ratio, inside, one_set, step, chunk, textless):
    # The records as the tail reads them (KeyedMatches, the pairs found
    # already dropped by positions, a few later records, ranges of positions
    # in chunks of any size), judged on the arrays, against the plain loop
    # over the same records; a document without its text has no letters.
    import numpy as np

    from partialdup.match import keyed
    from partialdup.match.keyed import KeyedMatches, Pending, RowPart
    from partialdup.match.pairs import FoundPairs

    check, first_docs = _check_and_documents(tokenizer, sample_features, ratio, inside, textless)
    second_docs = first_docs if one_set else first_docs[::-1]
    records = _records(first_docs, second_docs, step)
    first_keys = sorted({a for a, _, _ in records})
    second_keys = first_keys if one_set else sorted({b for _, b, _ in records})
    place = {key: i for i, key in enumerate(first_keys)}
    other = place if one_set else {key: i for i, key in enumerate(second_keys)}
    arrays, later = records[:-4], records[-4:]
    matches = KeyedMatches(
        np.array([place[a] for a, _, _ in arrays]), np.array([other[b] for _, b, _ in arrays]),
        np.array([s for _, _, s in arrays]), first_keys, None if one_set else second_keys,
    ).with_more(later)
    found = FoundPairs()
    for a, b, s in records[::7]:
        found.add(a, b, s)
    pending = Pending.not_found(matches, found)
    original = keyed._CHUNK
    keyed._CHUNK = chunk
    try:
        got, expected, memo = [], [], {}
        for low in range(0, len(pending), 300):
            part = pending.part(low, low + 300)
            assert isinstance(part, RowPart)
            got += check.accepted(part, first_docs, second_docs, memo)
            expected += check.accepted_plain(list(part), first_docs, second_docs)
        assert got == expected
        assert check.accepted(pending, first_docs, second_docs) == expected
    finally:
        keyed._CHUNK = original
    if one_set and ratio and not textless:
        assert len(got) > 20  # not a vacuous comparison: sentences with themselves, at least


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([0.0, 50.0, 85.5, 100.0]), st.sampled_from([0.0, 80.0, 95.0]), st.integers(20, 80), st.booleans())
def test_copied_rows_of_sentence_texts_give_what_the_plain_loop_gives(tokenizer, sample_features, ratio, inside, step, textless):
    # The near misses as detect sends them to a process forked before the
    # documents were read: each sentence's text and token count, the records
    # as sentence numbers, judged a piece at a time with one memo.
    import numpy as np

    from partialdup.match.verify import NearSentences

    check, docs = _check_and_documents(tokenizer, sample_features, ratio, inside, textless)
    records = _records(docs, docs, step)
    keys = sorted({key for a, b, _ in records for key in (a, b)})
    number = {key: n for n, key in enumerate(keys)}

    def text(key):
        doc = docs[key[0]]
        sentence = doc.sentences[key[1]]
        return None if doc.text is None else doc.text[sentence.start : sentence.end]

    sentences = NearSentences([text(key) for key in keys], np.array([docs[d].tokens[i] for d, i in keys], np.int64))
    first = np.array([number[a] for a, _, _ in records], np.int32)
    second = np.array([number[b] for _, b, _ in records], np.int32)
    memo: dict = {}
    rows = [low + row for low in range(0, len(records), 500)
            for row in check.copied_rows(first[low : low + 500], second[low : low + 500], sentences, memo).tolist()]
    assert [records[row] for row in rows] == check.accepted_plain(records, docs, docs)
    if ratio and not textless:
        assert len(rows) > 200  # every sentence with itself


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.text("ab", min_size=15, max_size=30), st.integers(0, 9), st.booleans(), st.text("ab", max_size=60), st.booleans(),
                       st.integers(0, 9), st.booleans(), st.booleans()), max_size=12),
    st.sampled_from([0.0, 85.5, 100.0]), st.sampled_from([0.0, 95.0]),
)
def test_the_tests_on_arrays_pass_every_pair_the_checks_accept(tokenizer, rows, ratio, inside):
    # _may_copy's masks are what accepted() and embedded() test before they
    # compare letters: a pair the checks accept is never ruled out. Half the
    # longer sentences hold the shorter whole (an embedded copy).
    import numpy as np

    from partialdup.match.verify import SentenceLetters

    if not (ratio or inside):
        inside = 95.0
    check = NearMissCheck(tokenizer.normalise, ratio, inside)
    pairs = []
    for short, short_tokens, heading, extra, holds, long_tokens, long_heading, swap in rows:
        a = SentenceLetters(short, short_tokens, heading)
        b = SentenceLetters(extra[: len(extra) // 2] + short + extra[len(extra) // 2 :] if holds else extra, long_tokens, long_heading)
        pairs.append((b, a) if swap else (a, b))
    columns = lambda side: np.array([(len(p[side].letters), p[side].tokens, p[side].numbered_heading) for p in pairs], np.int64).reshape(-1, 3)  # noqa: E731
    whole, inner = check._may_copy(columns(0), columns(1))
    for (a, b), may_whole, may_inner in zip(pairs, whole.tolist(), inner.tolist()):
        assert check.same(a.letters, b.letters) <= may_whole
        assert check.embedded(a, b) == (may_inner and check._inside(*sorted((a.letters, b.letters), key=len)))
