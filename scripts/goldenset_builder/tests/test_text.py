"""Sentence rule, unwrapping and fortune cleaning on excerpts of the real texts."""
from goldenset_builder.sources import FORTUNE_FILL, fortunes_by_chapter
from goldenset_builder.text import sentences
from goldenset_builder.unwrap import drop_tables, unwrap

# /usr/share/common-licenses/GPL-2 (base-files), Preamble, as wrapped there.
GPL_WRAPPED = """\
  The licenses for most software are designed to take away your
freedom to share and change it.  By contrast, the GNU General Public
License is intended to guarantee your freedom to share and change free
software--to make sure the software is free for all its users.  This
General Public License applies to most of the Free Software
Foundation's software and to any other program whose authors commit to
using it.  (Some other Free Software Foundation software is covered by
the GNU Lesser General Public License instead.)  You can apply it to
your programs, too.
"""
# goldenset/src/common_licenses_GPL_2.txt, line 7: the same paragraph as built.
GPL_LINE = (
    "The licenses for most software are designed to take away your freedom to share and "
    "change it.  By contrast, the GNU General Public License is intended to guarantee your "
    "freedom to share and change free software--to make sure the software is free for all "
    "its users.  This General Public License applies to most of the Free Software "
    "Foundation's software and to any other program whose authors commit to using it.  "
    "(Some other Free Software Foundation software is covered by the GNU Lesser General "
    "Public License instead.)  You can apply it to your programs, too.")

# /usr/share/games/fortunes/chinese (fortunes-zh): one Debian Reference quotation, raw.
FORTUNE_UMASK = (
    "\x1b[37;1m1.2.4.\xa0控制新建文件的权限：umask\x1b[;m\n\n"
    "\xa0\xa0\xa0 什么权限将应用到新建文件受 shell 内置命令 umask 的限制。参见dash\n"
    "    (1)，\x1b[34;1mbash(1)\x1b[m，\x1b[34;1m和内建命令(7)\x1b[m。\n\n"
    "\xa0\xa0\xa0  (文件权限) = (请求的文件权限) & ~(umask 值)\n\n"
    "    表\xa01.6.\xa0umask值举例\n\n"
    "    ┌────────────────────────────────────────────────────┐\n"
    "    │umask值│创建的文件权限│创建的目录权限│     用法     │\n"
    "\xa0\xa0\xa0 ├───────┼──────────────┼──────────────┼──────────────┤\n"
    "\x1b[33m    │0022   │-rw-r--r--    │-rwxr-xr-x    │仅所属用户可写│\x1b[m\n"
    "    ├───────┼──────────────┼──────────────┼──────────────┤\n"
    "\x1b[33m    │0002   │-rw-rw-r--    │-rwxrwxr-x    │仅所属组可写  │\x1b[m\n"
    "    └────────────────────────────────────────────────────┘\n\n\n"
    "    Debian 默认使用用户私人组（UPG）。每当一个新用户添加到系统的时候\n"
    "    都会创建一个UPG。UPG 的名字和创建它的用户相同，这个用户是这个UPG\n"
    "\xa0\xa0\xa0 的唯一成员。自从每个用户都有自己的私人组之后，把umask设置成0002变\n"
    "    得更安全了。（在某些 Unix 变体中，把所有普通用户设置到一个叫users\n"
    "    的组是非常常见的做法，在这种情况下，出于安全考虑把umask设为0022是\n"
    "    一个好主意）\n\n"
    "    \x1b[36;1m提示\x1b[m\n\n"
    "    通过把 \x1b[35;1m“umask 002”\x1b[;m 写入 ~/.bashrc 文件打开UPG。\n\n"
    "\x1b[33m                           -- Osamu Aoki (青木修), Debian 参考手册（版本 2.73）\x1b[m")
# goldenset/susp/fortuneszh_chinese_debref_ch01.txt: the same quotation as built.
FORTUNE_UMASK_BUILT = (
    "1.2.4.\xa0控制新建文件的权限：umask\n\n"
    "什么权限将应用到新建文件受 shell 内置命令 umask 的限制。参见dash (1)，bash(1)，和内建命令(7)。\n\n"
    "(文件权限) = (请求的文件权限) & ~(umask 值)\n\n"
    "Debian 默认使用用户私人组（UPG）。每当一个新用户添加到系统的时候都会创建一个UPG。"
    "UPG 的名字和创建它的用户相同，这个用户是这个UPG 的唯一成员。"
    "自从每个用户都有自己的私人组之后，把umask设置成0002变得更安全了。"
    "（在某些 Unix 变体中，把所有普通用户设置到一个叫users 的组是非常常见的做法，"
    "在这种情况下，出于安全考虑把umask设为0022是一个好主意）\n\n"
    "提示\n\n"
    "通过把 “umask 002” 写入 ~/.bashrc 文件打开UPG。\n")

# fortunes-zh again (the same file, ANSI colour escapes removed as fortunes_by_chapter
# does): a quoted shell session, lines shorter than the fill column.
FORTUNE_SESSION = (
    "\xa0\xa0\xa0 尝试下列例子\n\n"
    "    $ cd; mkfifo mypipe\n"
    "    $ echo \"hello\" >mypipe & # 放到后台运行\n"
    "    [1] 8022\n"
    "    $ ls -l mypipe\n"
    "    prw-rw-r-- 1 penguin penguin 0 Oct 16 21:49 mypipe\n"
    "\xa0\xa0\xa0 $ cat mypipe\n"
    "    hello\n")


def test_sentences_split_english_at_capital():
    got = [GPL_LINE[a:b] for a, b in sentences(GPL_LINE)]
    assert got == [
        "The licenses for most software are designed to take away your freedom to share and change it.",
        "By contrast, the GNU General Public License is intended to guarantee your freedom to share "
        "and change free software--to make sure the software is free for all its users.",
        "This General Public License applies to most of the Free Software Foundation's software and "
        "to any other program whose authors commit to using it.",
        # A closing bracket after the full stop stays with its sentence.
        "(Some other Free Software Foundation software is covered by the GNU Lesser General Public "
        "License instead.)",
        "You can apply it to your programs, too.",
    ]


def test_sentences_split_chinese_and_lines():
    text = "1.2.4.\xa0控制新建文件的权限：umask\n\n通过把 “umask 002” 写入 ~/.bashrc 文件打开UPG。参见dash (1)。\n"
    got = [text[a:b] for a, b in sentences(text)]
    assert got == ["1.2.4.\xa0控制新建文件的权限：umask", "通过把 “umask 002” 写入 ~/.bashrc 文件打开UPG。",
                   "参见dash (1)。"]


def test_unwrap_joins_a_wrapped_gpl_paragraph():
    assert unwrap(GPL_WRAPPED) == GPL_LINE + "\n"


def test_fortune_cleaned_as_in_the_committed_set():
    by_chapter = fortunes_by_chapter(FORTUNE_UMASK)
    assert list(by_chapter) == [1]
    text = unwrap(drop_tables("\n\n".join(by_chapter[1])), fill=FORTUNE_FILL)
    assert text == FORTUNE_UMASK_BUILT


def test_unwrap_with_fill_keeps_short_lines():
    assert unwrap(FORTUNE_SESSION, fill=FORTUNE_FILL) == (
        "尝试下列例子\n\n$ cd; mkfifo mypipe\n$ echo \"hello\" >mypipe & # 放到后台运行\n[1] 8022\n"
        "$ ls -l mypipe\nprw-rw-r-- 1 penguin penguin 0 Oct 16 21:49 mypipe\n$ cat mypipe\nhello\n")


def test_unwrap_without_fill_joins_short_lines():
    # Without the fill column every line not ending a sentence is joined (GPL-2's rule).
    assert unwrap("    $ cat mypipe\n    hello\n") == "$ cat mypipe hello\n"
