"""Labels: natural alignment and planted offsets reproduce the committed labels."""
from goldenset_builder.align import natural_align
from goldenset_builder.labels import GoldSet, sentence_pair
from goldenset_builder.plant import assemble_host
from goldenset_builder.write import feature_xml

# First 15 lines of goldenset/susp/man_zhtw_nl.1.txt and goldenset/src/man_zhcn_nl.1.txt.
NL_TW = ('名稱\nnl - 給檔案編行號\n\n概述\nnl [選項]... [檔案列表]...\n\n描述\n'
         '將檔案列表中的每一個檔案輸出到標準輸出，並新增行號。\n\n'
         '如果沒有指定檔案，或者指定檔案為"-"，則從標準輸入讀取。\n\n必選引數對長短選項同時適用。\n\n'
         '-b, --body-numbering=樣式\nuse STYLE for numbering body lines\n')
NL_CN = ('名称\nnl - 给文件编行号\n\n概述\nnl [选项]... [文件列表]...\n\n描述\n'
         '将文件列表中的每一个文件输出到标准输出，并添加行号。\n\n'
         '如果没有指定文件，或者指定文件为"-"，则从标准输入读取。\n\n必选参数对长短选项同时适用。\n\n'
         '-b, --body-numbering=样式\nuse STYLE for numbering body lines\n')
# Their sentence pairs in goldenset/sentence_pairs.jsonl (susp span; src span is the same).
NL_PAIRS = [(0, 2), (3, 14), (16, 18), (19, 39), (41, 43), (44, 70), (72, 101), (103, 117),
            (119, 142), (143, 177)]

# goldenset/src/handbook_zhcn_sect.quotas_p00.txt, offsets 0-219.
QUOTA_SRC = ("9.9.\xa0配额\n\n配额系统可以限制用户与群组可用的磁盘空间。设置时，必须内核支持 (以 CONFIG_QUOTA "
             "选项编译) — 使用 Debian 内核时。配额管理软件在 quota Debian 软件包内。\n\n"
             "在文件系统内启用配额时，必须在 /etc/fstab 中指明 usrquota 与 grpquota 选项，分别供用户与群组使用。"
             "重新启动电脑后，就能在未使用的磁盘空间中更新配额 (必须如此，才能重新计算已使用的磁盘空间)。")
# goldenset/susp/handbook_zhcn_conclusion_p00.txt, offsets 760-1300: a lightly edited
# passage of QUOTA_SRC (930-1140) planted after a sentence of the host.
HOST_BEFORE = (" the process of switching to what is known as a merged-usr filesystem: in this scheme "
               "/bin, /sbin and /lib are symlinks pointing to the corresponding directories in /usr.")
PLANTED = ("配额系统可以限制用户与群组可用的磁盘空间.设置，必须内核支持 (以 CONFIG_QUOTA 选项编译) — "
           "使用 Debian 内核时。配额管\n理软件在 quota Debian 软件包内。\n\n在文件系统内启用配额时,必须在 "
           "/etc/fstab 中指明 usrquota 与 grpquota 选项,分别供用户与群组使用.重新启动电脑后，就能在未使用的"
           "磁盘空间中更新配额 (必须如此，才能重新计算已使用的磁盘空间)；")
HOST_AFTER = (" This improves compatibility between all Unix systems, makes us closer of having all "
              "Debian-supplied files in a single top-level directory that can be easily pr")
EXCERPT_START = 760
# goldenset/sentence_pairs.jsonl lines of that pair: (susp span, src span).
QUOTA_PAIRS = [((930, 951), (9, 30)), ((951, 999), (30, 79)), ((999, 1026), (79, 105)),
               ((1028, 1093), (107, 172)), ((1093, 1140), (172, 219))]
# goldenset/truth/handbook_zhcn_conclusion_p00-handbook_zhcn_sect.quotas_p00.xml
QUOTA_TRUTH = """<?xml version="1.0" encoding="UTF-8"?>
<document reference="handbook_zhcn_conclusion_p00.txt">
<feature name="plagiarism" obfuscation="light" this_offset="930" this_length="210" \
source_reference="handbook_zhcn_sect.quotas_p00.txt" source_offset="9" source_length="210"/>
</document>
"""


def test_natural_align_labels_the_man_page_lines():
    spans, n_eligible, n_anchor = natural_align(NL_TW, NL_CN)
    assert len(spans) == 1 and n_eligible == n_anchor == 7
    assert spans[0]["pairs"] == [(p, p) for p in NL_PAIRS]
    assert spans[0]["susp"] == spans[0]["src"] == (0, 177)


def _planted_pieces():
    """The planted sentences with the source text between them, as edit_passage gives them."""
    pieces = []
    for k, ((sa, sb), (ra, rb)) in enumerate(QUOTA_PAIRS):
        if k:
            pieces.append(("sep", QUOTA_SRC[QUOTA_PAIRS[k - 1][1][1]:ra], None))
        a, b = sa - 930, sb - 930
        pieces.append(("sent", PLANTED[a:b], (ra, rb)))
    return pieces


def test_planted_offsets_reproduce_the_committed_labels():
    host = HOST_BEFORE + HOST_AFTER
    passage = dict(src={"stem": "handbook_zhcn_sect.quotas_p00", "text": QUOTA_SRC}, edit="light",
                   pieces=_planted_pieces())
    text, feats = assemble_host(host, [(len(HOST_BEFORE), "sent", passage)], "zh")
    assert text == HOST_BEFORE + PLANTED + HOST_AFTER
    assert list(feats) == ["handbook_zhcn_sect.quotas_p00"]

    gold = GoldSet()
    gold.add_planted({"stem": "handbook_zhcn_conclusion_p00", "text": text}, feats)
    shift = EXCERPT_START  # the excerpt starts at this offset of the committed document
    assert gold.sent_pairs == [
        sentence_pair("handbook_zhcn_conclusion_p00", "handbook_zhcn_sect.quotas_p00",
                      (sa - shift, sb - shift), r, "light") for (sa, sb), r in QUOTA_PAIRS]
    feature = gold.features[("handbook_zhcn_conclusion_p00", "handbook_zhcn_sect.quotas_p00")]
    shifted = [dict(f, this=(f["this"][0] + shift, f["this"][1] + shift)) for f in feature]
    assert feature_xml("handbook_zhcn_conclusion_p00", "handbook_zhcn_sect.quotas_p00", shifted) == QUOTA_TRUTH


def test_sentence_pair_keys_in_file_order():
    rec = sentence_pair("man_zhtw_nl.1", "man_zhcn_nl.1", (3, 14), (3, 14), "natural")
    assert list(rec) == ["susp", "src", "susp_start", "susp_end", "src_start", "src_end", "edit"]
    assert rec["susp"] == "man_zhtw_nl.1.txt" and rec["src_end"] == 14


def test_feature_xml_of_a_negative_has_no_feature():
    # goldenset/truth/man_zhcn_ab.1-man_zhcn_chown.1.xml
    assert feature_xml("man_zhcn_ab.1", "man_zhcn_chown.1", []) == (
        '<?xml version="1.0" encoding="UTF-8"?>\n<document reference="man_zhcn_ab.1.txt">\n</document>\n')
