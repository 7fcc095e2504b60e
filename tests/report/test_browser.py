"""The report in a real browser: headless Chromium (Debian's package) driven by playwright.

A report made by ``detect --report`` from real text (the GPL and the
installation guide that reproduces it, the zh_CN and zh_TW chmod man pages)
and an essay that copies GPL sentences with hostile markup inside them. The
page must run no script of the documents' (no dialog, no flag set, no
request beyond the page itself, no policy violation), its highlights must
hold exactly the copied passages, and its own script must work. The test
saves the screenshot the README shows (docs/report.png).

Skipped when Chromium or playwright is missing; ``.ci/run`` installs both.
Nothing is downloaded: playwright drives /usr/bin/chromium (never
``playwright install``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from partialdup.cli.main import main
from tests.paths import REPO, SAMPLES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SAMPLE_FILES = (
    "GPL-2.txt", "installation-guide.appendix-F.en.txt", "man_chmod.1.zh_CN.txt", "man_chmod.1.zh_TW.txt",
)
SCREENSHOT = REPO / "docs" / "report.png"

# The two strings of the issue, and two that would also leave a trace.
PAYLOADS = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "<script>window.__pwned = 1; alert(3)</script>",
    '<img src=x onerror="window.__pwned = 2; alert(4)">',
)


def essay(gpl: str) -> str:
    """Own words around three GPL paragraphs, hostile markup pasted inside copied sentences."""
    paragraphs = gpl.split("\n\n")
    speak, protect, example = (
        next(p for p in paragraphs if p.startswith(start)) for start in ("When we speak", "To protect", "For example")
    )
    speak = speak.replace("free software (and", f"free software {PAYLOADS[0]} {PAYLOADS[1]} (and", 1)
    example = example.replace("all the rights that you have.", f"all the rights that you have {PAYLOADS[2]}.", 1)
    protect = protect.replace("surrender the rights.", f"surrender the rights {PAYLOADS[3]}.", 1)
    assert all(p in speak + example + protect for p in PAYLOADS)
    return "\n\n".join([
        "What free software means to me",
        "I have thought about software licences for a long time, and these are the lines I keep coming back to.",
        speak, protect, example,
        "In my own words, to finish: sharing programs is how we learn from each other.",
    ]) + "\n"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """``detect --report`` on the documents: the HTML file and the texts by id."""
    folder = tmp_path_factory.mktemp("browser")
    docs = folder / "docs"
    docs.mkdir()
    for name in SAMPLE_FILES:
        shutil.copyfile(SAMPLES / name, docs / name)
    (docs / "essay.txt").write_text(essay((SAMPLES / "GPL-2.txt").read_text(encoding="utf-8")), encoding="utf-8")
    html = folder / "report.html"
    assert main(["detect", str(docs), "-o", str(folder / "m.jsonl"), "--report", str(html)]) == 0
    texts = {p.name: p.read_text(encoding="utf-8") for p in docs.iterdir()}
    return html, texts


#: Per passage: its documents, offsets, and the text of its highlights on each side.
PASSAGES_JS = """() => Array.from(document.querySelectorAll("tbody.passage")).map((body) => {
  const pair = body.closest("details.pair");
  const side = (s) => Array.from(body.querySelectorAll(`td[data-side="${s}"] mark.copy`)).map((m) => m.textContent).join("");
  const number = (name) => Number(body.getAttribute(name));
  return {a: pair.dataset.a, b: pair.dataset.b, a_start: number("data-a-start"), a_end: number("data-a-end"),
          b_start: number("data-b-start"), b_end: number("data-b-end"), a_text: side("a"), b_text: side("b")};
})"""

#: The hostile strings as the reader sees them: text inside a highlight.
SHOWN_JS = """() => Array.from(document.querySelectorAll("mark.copy"))
  .filter((m) => m.closest("tr.paired")).map((m) => m.innerText).join("\\n")"""


def test_the_report_in_chromium(report, tmp_path):
    html, texts = report
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 1100}, device_scale_factor=1, locale="en-US",
        )
        try:
            page = browser.new_page()
            dialogs, problems, requests = [], [], []
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.on("console", lambda message: problems.append(message.text) if message.type in ("error", "warning") else None)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(html.as_uri())
            page.wait_for_load_state("load")

            # Nothing of the documents ran, nothing was fetched, nothing was refused.
            assert dialogs == []
            assert page.evaluate("typeof window.__pwned") == "undefined"
            assert page.evaluate("[document.scripts.length, document.images.length]") == [1, 0]
            assert requests == [html.as_uri()]
            assert problems == []

            # The highlights hold exactly the copied passages, on both sides.
            passages = page.evaluate(PASSAGES_JS)
            assert len(passages) == len((html.parent / "m.jsonl").read_text(encoding="utf-8").splitlines()) > 0
            for p in passages:
                assert p["a_text"] == texts[p["a"]][p["a_start"] : p["a_end"]]
                assert p["b_text"] == texts[p["b"]][p["b_start"] : p["b_end"]]
            assert {(p["a"], p["b"]) for p in passages} >= {
                ("GPL-2.txt", "installation-guide.appendix-F.en.txt"),
                ("man_chmod.1.zh_CN.txt", "man_chmod.1.zh_TW.txt"),
                ("GPL-2.txt", "essay.txt"),
            }
            # ... and the hostile strings show as text, inside copied sentences, marked as changes.
            shown = page.evaluate(SHOWN_JS)
            assert all(payload in shown for payload in PAYLOADS)
            edits = page.evaluate("Array.from(document.querySelectorAll('mark.copy .edit')).map((e) => e.textContent).join('')")
            assert all(payload in edits for payload in PAYLOADS)
            colour = page.evaluate("getComputedStyle(document.querySelector('mark.copy')).backgroundColor")
            assert colour not in ("rgba(0, 0, 0, 0)", "transparent")

            # The page's own script runs: sorting the summary by document A (localeCompare: case aside).
            page.click("#summary-table th:nth-child(2) button")
            column = page.eval_on_selector_all("#summary-table tbody tr td:nth-child(2)", "cells => cells.map(c => c.dataset.v)")
            assert column == sorted(column, key=str.casefold) and page.get_attribute("#summary-table th:nth-child(2)", "aria-sort") == "ascending"
            page.click("#summary-table th:nth-child(1) button")  # back to the report's own order for the picture

            _screenshot(page, tmp_path)
            assert dialogs == [] and problems == []
        finally:
            browser.close()


def _screenshot(page, tmp_path: Path) -> None:
    """docs/report.png: the summary and the first pair (Chinese and English side by side).

    Rewritten only when the picture changed, so that a test run leaves the
    work tree clean on a machine that renders as the last one did.
    """
    shot = tmp_path / "report.png"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shot))
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
    if not SCREENSHOT.exists() or SCREENSHOT.read_bytes() != data:
        SCREENSHOT.parent.mkdir(exist_ok=True)
        SCREENSHOT.write_bytes(data)
