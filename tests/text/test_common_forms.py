"""One form of each Chinese word for Taiwan and mainland usage (partialdup.text.common_forms)."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.chars import is_han
from partialdup.text import tokens as tokens_module
from partialdup.text.common_forms import S2TWP, CommonForms, opencc_converter
from tests.paths import SAMPLES


@pytest.fixture(scope="module")
def forms():
    return CommonForms()


_han_word = st.text(st.sampled_from(list("中文字乙漢轉換說话檔案使用者預設軟體網路記憶體資訊程式设置鼠标位元組")), min_size=1, max_size=5)


@settings(max_examples=100, deadline=None)
@given(st.lists(_han_word, max_size=12))
def test_common_forms_in_one_call_are_those_of_each_word(forms, words):
    # CommonForms.converted (the words joined by line breaks, two OpenCC
    # calls) against the plain reference: the two conversions word by word.
    assert forms.converted(words) == [forms.convert(word) for word in words]


def test_common_forms_of_real_words_in_one_call_are_those_of_each_word(forms, tokenizer):
    # Every Taiwan word of the added dictionary (the words most changed by the
    # conversions) and the words of the samples' Chinese text.
    taiwan = [line.split("\t")[0] for line in tokens_module.DEFAULT_TAIWAN_WORDS.read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")]
    samples = [word for path in sorted(SAMPLES.glob("*zh*.txt")) for word in tokenizer.words(path.read_text(encoding="utf-8"))
               if is_han(word[0])]
    words = list(dict.fromkeys([*taiwan, *samples]))
    assert len(words) > 1000
    assert forms.converted(words) == [forms.convert(word) for word in words]


def test_a_word_remembered_and_the_words_of_a_call_take_the_forms_of_each_word(forms):
    # Taiwan and mainland usage meet: 檔案 / 文件, 使用者 / 用户.
    assert forms.of("檔案") == forms.of("文件") == forms.convert("文件")
    words = ["使用者", "用户", "預設", "默认", "檔案"]
    assert [forms.of_all(words)[word] for word in words] == [forms.convert(word) for word in words]
    assert forms.of_all(["使用者"])["使用者"] == forms.of_all(["用户"])["用户"]


# The merged s2twp (data/opencc, scripts/build_opencc_s2twp.py) against its
# plain reference, OpenCC's stock s2twp: the same conversion in a quarter of
# the memory, or the forms, and every index built with them, would change.


@pytest.fixture(scope="module")
def s2twp_pair():
    # Made from one OpenCC's dictionaries: another's stock s2twp may convert
    # some words otherwise (new phrases), while ours stays as made.
    from importlib import metadata

    made_from = (S2TWP.parent / "PROVENANCE.txt").read_text(encoding="utf-8").split("\n", 1)[0]
    installed = metadata.version("opencc")
    if f"OpenCC {installed} " not in made_from:
        pytest.skip(f"data/opencc was made from another OpenCC than {installed} ({made_from!r}): "
                    "run scripts/build_opencc_s2twp.py to compare them")
    return opencc_converter(str(S2TWP)), opencc_converter("s2twp")


@pytest.fixture(scope="module")
def jieba_words():
    import jieba

    lines = (Path(jieba.__file__).resolve().parent / "dict.txt").read_text(encoding="utf-8").splitlines()
    return [line.split(" ", 1)[0] for line in lines if line.strip()]


def test_merged_s2twp_converts_every_word_of_jiebas_dictionary_as_the_stock_one(s2twp_pair, jieba_words):
    # 349,046 words, one per line: OpenCC segments and converts each line
    # alone (no phrase holds a line break), so this is every word by itself.
    merged, stock = s2twp_pair
    text = "\n".join(jieba_words)
    assert len(jieba_words) > 300_000
    assert merged.convert(text) == stock.convert(text)


def test_merged_s2twp_converts_the_samples_as_the_stock_one(s2twp_pair):
    merged, stock = s2twp_pair
    texts = [path.read_text(encoding="utf-8") for path in sorted(SAMPLES.glob("*zh*.txt"))]
    assert texts
    for text in texts:
        assert merged.convert(text) == stock.convert(text)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_merged_s2twp_converts_runs_of_words_as_the_stock_one(s2twp_pair, jieba_words, data):
    # Words run together, so that phrases meet across their edges, with
    # characters of Traditional, Simplified and compatibility forms between.
    # (A word by its number: sampled_from copies the 349,046 words each time.)
    word = st.integers(0, len(jieba_words) - 1).map(jieba_words.__getitem__)
    pieces = st.one_of(word, st.sampled_from(list("的了軟体件著着乾干後后臺台裡里豐丰丶︰⺀豈更")))
    text = "".join(data.draw(st.lists(pieces, min_size=1, max_size=8)))
    merged, stock = s2twp_pair
    assert merged.convert(text) == stock.convert(text)


def test_merged_s2twp_files_are_those_the_provenance_names():
    # A file changed or missing without the script run again is caught here.
    import hashlib

    folder = S2TWP.parent
    listed = [line.split("  ") for line in (folder / "PROVENANCE.txt").read_text(encoding="utf-8").splitlines() if "  " in line]
    names = {name for _, name in listed}
    assert names == {path.name for path in folder.iterdir() if path.name != "PROVENANCE.txt"}
    for digest, name in listed:
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
