"""A real browser (Debian chromium via Playwright) against a live server on the examples."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from test_web import copy_db, seeded  # noqa: F401, F811  (session fixture: examples ingested once)

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian chromium not installed at /usr/bin/chromium"
    ),
]
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(
    seeded: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    work = tmp_path_factory.mktemp("browser")
    copy_db(seeded, work / "b.db")
    with _serve(work / "b.db") as url:
        yield url


@contextmanager
def _serve(db: Path) -> Iterator[str]:
    """A live uvicorn server on 127.0.0.1 over `db`, stopped when the generator closes."""
    import uvicorn

    from corroborator.web.app import create_app

    port = _free_port()
    config = uvicorn.Config(
        create_app(str(db), db.with_suffix(".archive")),
        host="127.0.0.1",
        port=port,
        log_level="warning",
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def test_review_flow_map_and_timeline(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server + "/")
    rows = page.locator("table.incidents tbody tr")
    total = rows.count()
    assert total >= 1
    first_type = page.locator("table.incidents tbody tr td").first.inner_text().strip()
    page.select_option("select[name=type]", first_type)
    page.click("form.filters button[type=submit]")
    page.wait_for_load_state()
    assert f"type={first_type}" in page.url
    types = page.locator("table.incidents tbody tr td:first-child").all_inner_texts()
    assert types and all(t.strip() == first_type for t in types)
    page.screenshot(path=str(tmp_path / "incidents.png"), full_page=True)
    page.goto(server + "/")
    links = page.locator("a.inc-link")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    page.goto(server + hrefs[0])
    assert page.locator("h2", has_text="Fields and the words behind them").is_visible()
    page.screenshot(path=str(tmp_path / "dossier.png"), full_page=True)
    # the source words of the first mention, highlighted in the document
    page.locator("ul.mentions a.ref").first.click()
    page.wait_for_load_state()
    assert "/documents/" in page.url
    highlighted = page.locator(".doctext a.hl.incident")
    assert highlighted.count() >= 1
    page.screenshot(path=str(tmp_path / "document.png"), full_page=True)
    if len(hrefs) >= 2:
        a, b = hrefs[0].rsplit("/", 1)[1], hrefs[1].rsplit("/", 1)[1]
        page.goto(server + f"/incidents/{a}")
        page.fill("#review-form input[name=reviewer]", "ana")
        page.fill("#review-form input[name=reason]", "same event, two outlets")
        page.fill("#review-form input[name=other]", b)  # app.js ticks "merge"
        assert page.locator("input[name=action][value=merge]").is_checked()
        page.click("#review-form button[type=submit]")
        page.wait_for_load_state()
        assert "Recorded merge" in page.locator(".msg").inner_text()
        assert page.locator("ol.history li").count() == 1
        page.fill("form.undo input[name=reviewer]", "ben")
        page.fill("form.undo input[name=reason]", "different days")
        page.click("form.undo button")
        page.wait_for_load_state()
        assert "Undid" in page.locator(".msg").inner_text()
        assert page.locator("ol.history .badge", has_text="undone").count() == 1
        page.goto(server + f"/incidents/{b}")
        assert page.locator("h1").is_visible()  # the merged-away incident is back
    page.goto(server + "/map")
    assert page.locator("svg#map").is_visible()
    page.screenshot(path=str(tmp_path / "map.png"), full_page=True)
    page.goto(server + "/timeline")
    assert page.locator("svg#timeline").is_visible()
    assert page.locator("svg#timeline a.tl-item").count() >= 1
    page.screenshot(path=str(tmp_path / "timeline.png"), full_page=True)
    assert dialogs == []
    for shot in ("incidents", "dossier", "document", "map", "timeline"):
        assert (tmp_path / f"{shot}.png").stat().st_size > 2000


def test_no_script_from_documents_runs_anywhere(server: str, browser: object) -> None:
    import json
    import urllib.request

    page = browser.new_page()  # type: ignore[attr-defined]
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    with urllib.request.urlopen(server + "/api/documents?per_page=500") as resp:
        docs = json.load(resp)["items"]
    with urllib.request.urlopen(server + "/api/incidents?per_page=500") as resp:
        incs = json.load(resp)["items"]
    hostile = [d for d in docs if "__xss" in (d.get("text") or "") + (d.get("title") or "")]
    assert hostile
    urls = ["/", "/entities", "/map", "/timeline", "/?q=script"]
    urls += [f"/documents/{d['document_id']}" for d in docs]
    urls += [f"/incidents/{i['incident_id']}" for i in incs]
    for url in urls:
        page.goto(server + url)
        page.wait_for_load_state("load")
        for link in page.locator("a").all()[:400]:
            href = (link.get_attribute("href") or "").strip().lower()
            assert not href.startswith("javascript:"), (url, href)
        page.mouse.move(5, 5)
        assert page.evaluate("() => window.__xss === undefined"), url
    assert dialogs == []


def test_accept_on_the_suggestions_page_merges(browser: object, tmp_path: Path) -> None:
    from test_suggestions import ALL, build

    db = build(tmp_path, ALL)
    with _serve(db) as base:
        page = browser.new_page()  # type: ignore[attr-defined]
        page.goto(base + "/")
        page.click("p.suggest-link a")
        page.wait_for_load_state()
        assert page.url.endswith("/suggestions")
        section = page.locator("section.suggestion", has_text="Same incident?").first
        a = section.locator("input[name=a]").get_attribute("value")
        b = section.locator("input[name=b]").get_attribute("value")
        section.locator("input[name=reviewer]").fill("ana")
        section.locator("input[name=reason]").fill("one shelling, two outlets")
        section.locator("button[value=accept]").click()
        page.wait_for_load_state()
        assert "Recorded merge" in page.locator(".msg").inner_text()
        assert page.locator(f"section.suggestion input[name=b][value='{b}']").count() == 0
        page.goto(base + f"/incidents/{a}")
        assert b in page.locator("p.status").inner_text()  # "Merged from: ..."
        page.screenshot(path=str(tmp_path / "merged.png"), full_page=True)


def test_not_this_story_on_the_document_page(browser: object, tmp_path: Path) -> None:
    """A reviewer takes a report out of its story from the document page."""
    from corroborator.storage.db import open_store
    from test_suggestions import HOSPITAL, RETOLD, build

    db = build(tmp_path, {**HOSPITAL, "r.txt": RETOLD["r.txt"]})
    docs = open_store(str(db)).documents(with_text=False)
    doc_id = next(d["document_id"] for d in docs if d["source_file"] == "r.txt")
    with _serve(db) as base:
        page = browser.new_page()  # type: ignore[attr-defined]
        page.goto(base + f"/documents/{doc_id}")
        assert page.locator("aside li a[href^='/documents/']").count() == 1  # c.txt
        form = page.locator("form", has_text="Not this story")
        form.locator("input[name=reviewer]").fill("ana")
        form.locator("input[name=reason]").fill("another ward")
        form.locator("button").click()
        page.wait_for_load_state()
        assert "Recorded other_story" in page.locator(".msg").inner_text()
        assert "No other report tells this story." in page.locator("aside").inner_text()
        page.screenshot(path=str(tmp_path / "left.png"), full_page=True)
