"""One form of each Chinese word for Taiwan and mainland usage (partialdup.text.common_forms)."""

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.chars import is_han
from partialdup.text import tokens as tokens_module
from partialdup.text.common_forms import CommonForms
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
