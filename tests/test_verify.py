import pytest

from partialdup.verify import DEFAULT_MIN_RATIO, NearMissCheck
from partialdup.types import Sentence


@pytest.fixture(scope="module")
def check(tokenizer):
    return NearMissCheck(tokenizer.normalise)


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


def test_the_ratio_is_checked(tokenizer):
    with pytest.raises(ValueError):
        NearMissCheck(tokenizer.normalise, 0.0)
    assert NearMissCheck(tokenizer.normalise).min_ratio == DEFAULT_MIN_RATIO
