"""Near-miss suggestions on the real pipeline: stored by full and incremental relinks,
decided by reviewers (merge / same_story / keep_apart), replayed over relinks, undoable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from corroborator import review
from corroborator.cli import cli
from corroborator.storage.db import Store, open_store
from corroborator.web.app import create_app
from corroborator.web.suggestions import pending

# Two reports of one shelling, worded so the linker scores them below its merge bar: the
# second, a follow-up seven weeks later, gives no date, so nothing anchors the two in time,
# and it is published too long after the first to share its story.
SHELLING = {
    "a.jsonl": json.dumps(
        {
            "id": "a.txt",
            "published": "2023-05-14",
            "text": "Artillery shells struck a residential block in Kupiansk on 14 May 2023,"
            " killing four civilians and wounding nine, the regional governor said. Rescuers"
            " pulled two residents from the rubble of the five-storey building.",
        }
    ),
    "b.jsonl": json.dumps(
        {
            "id": "b.txt",
            "published": "2023-07-03",
            "text": "Four people died when rockets hit apartment houses in the town of"
            " Kupiansk, according to local volunteers. Neighbours described smoke over the"
            " market and broken windows across the district.",
        }
    ),
}
SHELLING_FILES = {"a.txt", "b.txt"}
# Two reports of one hospital strike sharing too few words to make one story on their own.
HOSPITAL = {
    "c.txt": (
        "A drone strike damaged the maternity ward of the central hospital in Kherson on 3 June"
        " 2023, the health ministry said. Doctors moved newborns to the basement. The ministry"
        " said the building had no military use and asked international monitors to visit the"
        " ward."
    ),
    "d.txt": (
        "Staff at the city's main hospital spent the night treating patients in corridors after"
        " the drone strike on 3 June 2023. A nurse said windows of the maternity ward were blown"
        " out. Volunteers brought generators because power to the district failed."
    ),
}
OTHER = {
    "e.txt": (
        "Prosecutors in Kyiv opened a case on 10 June 2023 into the deportation of children from"
        " occupied Melitopol, officials said. Parents told investigators the children were taken"
        " to camps in Crimea."
    ),
}
ALL = {**SHELLING, **HOSPITAL, **OTHER}


def ingest(db: Path, folder: Path, texts: dict[str, str]) -> str:
    folder.mkdir(parents=True)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    res = CliRunner().invoke(cli, ["--db", str(db), "ingest", "--quiet", str(folder)])
    assert res.exit_code == 0, res.output
    return res.output


def relink_all(db: Path) -> None:
    res = CliRunner().invoke(cli, ["--db", str(db), "extract", "--all", "--quiet"])
    assert res.exit_code == 0, res.output


def build(tmp_path: Path, texts: dict[str, str] = ALL) -> Path:
    db = tmp_path / "s.db"
    ingest(db, tmp_path / "in", texts)
    return db


def files(s: dict[str, Any]) -> set[str]:
    if s["kind"] == "story":
        return {s["left"]["source_file"], s["right"]["source_file"]}
    return {m["source_file"] for side in ("left", "right") for m in s[side]["mentions"]}


def incident_pair(store: Store) -> dict[str, Any]:
    found = [s for s in pending(store, "incident") if files(s) == SHELLING_FILES]
    assert len(found) == 1, [(s["reason"], files(s)) for s in pending(store)]
    return found[0]


def story_pair(store: Store) -> dict[str, Any]:
    found = [s for s in pending(store, "story") if files(s) == set(HOSPITAL)]
    assert len(found) == 1, [(s["reason"], files(s)) for s in pending(store)]
    return found[0]


def incident_ids(store: Store) -> set[str]:
    return {r["incident_id"] for r in store.rows("SELECT incident_id FROM incidents")}


def stories_of(store: Store) -> dict[str, str]:
    return {d["source_file"]: d["story_id"] for d in store.documents(with_text=False)}


def test_full_ingest_suggests_the_near_misses(tmp_path: Path) -> None:
    store = open_store(str(build(tmp_path)))
    s = incident_pair(store)
    assert {s["a"], s["b"]} <= incident_ids(store) and s["a"] != s["b"]
    assert 0.3 <= s["score"] < 0.5 and s["reason"].startswith("same type ")
    assert s["left"]["type"] == s["right"]["type"]
    st = story_pair(store)
    assert stories_of(store)["c.txt"] != stories_of(store)["d.txt"]
    assert "one story needs" in st["reason"]


def test_incremental_ingest_suggests_them_too(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    first = {"a.jsonl": SHELLING["a.jsonl"], "c.txt": HOSPITAL["c.txt"], **OTHER}
    ingest(db, tmp_path / "first", first)
    out = ingest(
        db, tmp_path / "later", {"b.jsonl": SHELLING["b.jsonl"], "d.txt": HOSPITAL["d.txt"]}
    )
    assert "(incremental)" in out
    store = open_store(str(db))
    incident_pair(store)
    before = {(s["kind"], s["a"], s["b"]) for s in pending(store) if s["kind"] == "incident"}
    relink_all(db)  # the full relink finds the same pairs
    assert {
        (s["kind"], s["a"], s["b"]) for s in pending(store) if s["kind"] == "incident"
    } == before


def test_incremental_ingest_suggests_the_story_near_miss(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    ingest(
        db,
        tmp_path / "first",
        {"a.jsonl": SHELLING["a.jsonl"], "c.txt": HOSPITAL["c.txt"], **OTHER},
    )
    ingest(db, tmp_path / "later", {"b.jsonl": SHELLING["b.jsonl"], "d.txt": HOSPITAL["d.txt"]})
    story_pair(open_store(str(db)))


def test_accepting_merges_and_the_merge_survives_extract_all(tmp_path: Path) -> None:
    db = build(tmp_path)
    store = open_store(str(db))
    s = incident_pair(store)
    n = len(incident_ids(store))
    review.submit(store, "merge", s["a"], {"other": s["b"]}, "ana", "same shelling, same day")
    for _ in range(2):
        assert s["b"] not in incident_ids(store) and len(incident_ids(store)) == n - 1
        rows = store.rows("SELECT record FROM incidents WHERE incident_id = ?", (s["a"],))
        merged = json.loads(rows[0]["record"])
        assert {m["source_file"] for m in merged["mentions"]} >= SHELLING_FILES
        assert not [x for x in pending(store, "incident") if s["a"] in (x["a"], x["b"])]
        relink_all(db)


def test_rejecting_hides_it_over_relinks_and_undo_restores_it(tmp_path: Path) -> None:
    db = build(tmp_path)
    store = open_store(str(db))
    s = incident_pair(store)
    n = len(incident_ids(store))
    with pytest.raises(review.ReviewError):  # a reason is required, like other actions
        review.submit(store, "keep_apart", s["a"], {"other": s["b"], "kind": "incident"}, "ana")
    done = review.submit(
        store, "keep_apart", s["a"], {"other": s["b"], "kind": "incident"}, "ana", "two strikes"
    )
    assert store.ledger()[-1].subject == done["review_id"]
    for _ in range(2):
        assert not [x for x in pending(store, "incident") if files(x) == SHELLING_FILES]
        assert len(incident_ids(store)) == n  # nothing merged or removed
        relink_all(db)
    review.submit(store, "undo", done["review_id"], {}, "ben", "same strike after all")
    assert incident_pair(store)["a"] == s["a"]


def test_accepting_a_story_suggestion_gives_one_story_id(tmp_path: Path) -> None:
    db = build(tmp_path)
    store = open_store(str(db))
    st = story_pair(store)
    with pytest.raises(review.ReviewError):
        review.submit(store, "same_story", st["a"], {"other": st["a"]}, "ana", "x")
    done = review.submit(store, "same_story", st["a"], {"other": st["b"]}, "ana", "one strike")
    for _ in range(2):
        got = stories_of(store)
        assert got["c.txt"] == got["d.txt"]
        assert not pending(store, "story")
        relink_all(db)
    review.submit(store, "undo", done["review_id"], {}, "ben", "different hospitals")
    got = stories_of(store)
    assert got["c.txt"] != got["d.txt"]
    story_pair(store)


def test_story_keep_apart_hides_only_that_pair(tmp_path: Path) -> None:
    store = open_store(str(build(tmp_path)))
    st = story_pair(store)
    review.submit(
        store, "keep_apart", st["a"], {"other": st["b"], "kind": "story"}, "ana", "two wards"
    )
    assert not [x for x in pending(store, "story") if files(x) == set(HOSPITAL)]
    assert incident_pair(store)  # the incident suggestion is untouched


# The hospital strike retold in other words (one story with c.txt), and a regional copy of
# that retelling with a paragraph of its own (a copy of r.txt).
RETOLD = {
    "r.txt": "Kherson's central hospital lost the windows of its maternity ward when a drone"
    " struck it on 3 June 2023, according to the health ministry, which said the building"
    " served no military purpose. Newborns were carried down to the basement by doctors, and"
    " the ministry called on international monitors to inspect the ward.",
}
RETOLD["r2.txt"] = RETOLD["r.txt"] + " Volunteers in Mykolaiv sent blankets."


def test_a_document_leaves_its_story_and_the_rest_stays_together(tmp_path: Path) -> None:
    """`other_story`: a report taken out of its story leaves with its copies; the rest keeps
    one story, under its earliest remaining member's id when the story bore the leaving
    report's id; relinks replay it, and an undo brings the report back."""
    db = build(tmp_path, {**HOSPITAL, **RETOLD})
    store = open_store(str(db))
    docs = store.documents(with_text=False)
    ids = {d["source_file"]: d["document_id"] for d in docs}
    assert {d["source_file"]: d["duplicate_of"] for d in docs}["r2.txt"] == ids["r.txt"]
    before = stories_of(store)
    assert before["c.txt"] == before["r.txt"] == before["r2.txt"] != before["d.txt"]
    with pytest.raises(review.ReviewError):
        review.submit(store, "other_story", "no-such-document", {}, "ana", "x")
    holder = next(f for f, i in ids.items() if i == before["c.txt"])
    done = review.submit(store, "other_story", ids[holder], {}, "ana", "another hospital")
    for _ in range(2):
        got = stories_of(store)
        rest = {f: got[f] for f in ("c.txt", "r.txt", "r2.txt") if f != holder}
        assert got[holder] == ids[holder] and ids[holder] not in rest.values()
        assert len(set(rest.values())) == 1 and set(rest.values()) <= set(ids.values())
        relink_all(db)
    review.submit(store, "undo", done["review_id"], {}, "ben", "same hospital after all")
    assert stories_of(store) == before
    review.submit(store, "other_story", ids["r.txt"], {}, "ana", "its copy goes with it")
    got = stories_of(store)
    assert got["r.txt"] == got["r2.txt"] == ids["r.txt"] != got["c.txt"]


def test_the_document_page_lists_its_story_and_takes_a_reviewer_s_word(tmp_path: Path) -> None:
    db = build(tmp_path, {**HOSPITAL, **RETOLD})
    store = open_store(str(db))
    ids = {d["source_file"]: d["document_id"] for d in store.documents(with_text=False)}
    client = TestClient(create_app(str(db), db.with_suffix(".archive")), follow_redirects=False)
    page = client.get(f"/documents/{ids['c.txt']}").text
    assert f'href="/documents/{ids["r.txt"]}"' in page and "Not this story" in page
    assert f'href="/documents/{ids["d.txt"]}"' not in page
    form = {"reviewer": "ana", "reason": "another ward"}
    url = f"/documents/{ids['c.txt']}/story"
    assert client.post(url, data=form).status_code == 403
    csrf = client.get("/api/csrf").json()["csrf"]
    resp = client.post(url, data={**form, "csrf": csrf})
    assert resp.status_code == 303
    assert "Recorded other_story" in client.get(resp.headers["location"]).text
    assert stories_of(store)["c.txt"] != stories_of(store)["r.txt"]
    join = {**form, "other": ids["d.txt"], "csrf": csrf}
    assert client.post(url, data=join).status_code == 303
    assert stories_of(store)["c.txt"] == stories_of(store)["d.txt"] != stories_of(store)["r.txt"]


XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=1">'


def _inject(name: str, text: str) -> str:
    """The text with hostile markup in it (inside the JSON record's text for JSONL)."""
    if name.endswith(".jsonl"):
        record = json.loads(text)
        return json.dumps(dict(record, text=_inject("", record["text"])))
    return text.replace("2023, ", f"2023, {XSS} ", 1)


def test_page_escapes_hostile_text_and_forms_need_csrf(tmp_path: Path) -> None:
    texts = {**SHELLING, **HOSPITAL}
    db = build(tmp_path, {n: _inject(n, t) for n, t in texts.items()})
    client = TestClient(create_app(str(db), db.with_suffix(".archive")), follow_redirects=False)
    page = client.get("/suggestions").text
    assert "<script>window" not in page and "onerror=" not in page.replace("onerror=&#34;", "")
    assert "&lt;script&gt;" in page and "Accept" in page and "Reject" in page
    assert 'href="/suggestions"' in client.get("/").text
    api = client.get("/api/suggestions?kind=incident").json()
    assert api["total"] >= 1 and {"a", "b", "score", "reason", "left", "right"} <= set(
        api["items"][0]
    )
    s = api["items"][0]
    assert f"/suggestions?about={s['a']}" in client.get(f"/incidents/{s['a']}").text
    form = {"kind": "incident", "a": s["a"], "b": s["b"], "decision": "accept"}
    form |= {"reviewer": "ana", "reason": "same shelling"}
    assert client.post("/suggestions/decide", data=form).status_code == 403
    csrf = client.get("/api/csrf").json()["csrf"]
    resp = client.post("/suggestions/decide", data={**form, "csrf": csrf})
    assert resp.status_code == 303 and "Recorded merge" in client.get(resp.headers["location"]).text
    assert s["b"] not in {i["incident_id"] for i in client.get("/api/incidents").json()["items"]}
    story = client.get("/api/suggestions?kind=story").json()["items"][0]
    body = {"action": "keep_apart", "target": story["a"], "reviewer": "ana", "reason": "no"}
    body["payload"] = {"other": story["b"], "kind": "story"}
    assert client.post("/api/reviews", json=body, headers={"X-CSRF-Token": csrf}).status_code == 201
    assert client.get("/api/suggestions?kind=story").json()["total"] == 0
