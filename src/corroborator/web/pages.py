"""Server-rendered pages; forms post review actions and redirect back (POST/redirect/GET)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from corroborator import review
from corroborator.models import INCIDENT_TYPES, STATUSES
from corroborator.web import charts, dossier, highlight, queries, suggestions
from corroborator.web.app import check_csrf, web

router = APIRouter(include_in_schema=False)
PER_PAGE = 50


def _render(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    ctx.setdefault("csrf", getattr(request.state, "csrf", ""))
    ctx.setdefault("msg", request.query_params.get("msg", "")[:300])
    return web(request).templates.TemplateResponse(request, name, ctx, status_code=status)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _filter(request: Request) -> tuple[queries.IncidentFilter, dict[str, str]]:
    p = {k: v[:200] for k, v in request.query_params.items()}
    contra = {"yes": True, "no": False}.get(p.get("contradiction", ""))
    f = queries.IncidentFilter(
        type=p.get("type") or None,
        status=p.get("status") or None,
        place=p.get("place") or None,
        date_from=p.get("date_from") or None,
        date_to=p.get("date_to") or None,
        perpetrator=p.get("perpetrator") or None,
        min_sources=_int(p.get("min_sources")),
        contradiction=contra,
        review=p.get("review") or None,
        q=p.get("q") or None,
    )
    return f, p


@router.get("/", response_class=HTMLResponse)
def incidents_page(request: Request) -> HTMLResponse:
    store = web(request).store()
    f, params = _filter(request)
    sort = params.get("sort", "-score")
    page = max(_int(params.get("page")) or 1, 1)
    total, items = queries.search_incidents(store, f, sort, page, PER_PAGE)
    return _render(
        request,
        "incidents.html",
        items=items,
        total=total,
        page=page,
        pages=max(1, -(-total // PER_PAGE)),
        params=params,
        sort=sort,
        facets=queries.facet_counts(store, f),
        all_count=queries.incident_total(store),
        open_suggestions=len(suggestions.pending(store)),
        types=INCIDENT_TYPES,
        statuses=STATUSES,
    )


@router.get("/incidents/{incident_id}", response_class=HTMLResponse)
def incident_page(request: Request, incident_id: str) -> HTMLResponse:
    store = web(request).store()
    d = dossier.build(store, incident_id)
    if d is None:
        return _render(request, "error.html", 404, message=f"No incident {incident_id}.")
    return _render(
        request,
        "incident.html",
        d=d,
        suggested=suggestions.pending(store, "incident", incident_id),
        inc=d.incident,
        types=INCIDENT_TYPES,
        statuses=STATUSES,
        fields=review.CORRECTABLE,
    )


@router.get("/documents/{document_id}", response_class=HTMLResponse)
def document_page(request: Request, document_id: str) -> HTMLResponse:
    store = web(request).store()
    found = store.documents([document_id])
    if not found:
        return _render(request, "error.html", 404, message=f"No document {document_id}.")
    doc = found[0]
    ex = store.extractions([document_id]).get(document_id) or {}
    incs = queries.incidents_in_documents(store, [document_id])
    quotes = queries.quotes_for(store, [document_id])
    entity_ids: dict[tuple[int, int], str] = {}
    for r in store.rows("SELECT record FROM entities WHERE record LIKE ?", (f"%{document_id}%",)):
        e = json.loads(r["record"])
        for m in e["mentions"]:
            if m["document_id"] == document_id:
                entity_ids[(m["start"], m["end"])] = e["entity_id"]
    marks = highlight.marks_for(document_id, ex, incs, quotes, entity_ids)
    original = (
        store.documents([doc["duplicate_of"]], with_text=False) if doc.get("duplicate_of") else []
    )
    return _render(
        request,
        "document.html",
        doc=doc,
        ex=ex,
        incidents=incs,
        quotes=quotes,
        segments=highlight.segments(doc["text"], marks),
        original=original,
        story=queries.story_members(store, doc),
        history=review.history(store, [document_id]),
        archive_path=str(web(request).archive_root / doc["archive_relpath"]),
        media=store.document_media([document_id]).get(document_id, []),
        facts=store.document_facts([document_id]).get(document_id, {}),
        forward=store.document_origins([document_id]).get(document_id),
        names_only=_partly_read(ex, unread=False),
        unread=_partly_read(ex, unread=True),
    )


def _partly_read(ex: dict[str, Any], unread: bool) -> list[str]:
    """Languages of the document with no pipeline: read for names and places only, or, in
    a script no reader of ours knows (`unread`), not read at all."""
    from corroborator.nlp.lang.detect import SCRIPT_LANGUAGES, language_name
    from corroborator.nlp.lang.route import PIPELINES

    found = {r["language"] for r in ex.get("languages", []) if r["language"] not in PIPELINES}
    return sorted(language_name(c) for c in found if (c in SCRIPT_LANGUAGES) == unread)


@router.get("/entities", response_class=HTMLResponse)
def entities_page(
    request: Request,
    kind: str | None = None,
    q: str | None = None,
    page: Annotated[int, Query(ge=1)] = 1,
) -> HTMLResponse:
    store = web(request).store()
    total, ents = queries.search_entities(store, kind or None, (q or "")[:200] or None, page, 200)
    roles: dict[str, dict[str, list[dict[str, Any]]]] = {}
    names = {e["name"].lower(): e["entity_id"] for e in ents}
    for inc in queries.all_incident_records(store):
        for p in inc.get("perpetrators") or []:
            eid = p.get("entity_id") or names.get((p.get("name") or "").lower())
            if eid:
                roles.setdefault(eid, {}).setdefault("perpetrator", []).append(inc)
    speakers: dict[str, list[dict[str, Any]]] = {}
    for r in store.rows("SELECT record FROM quotes"):
        qrec = json.loads(r["record"])
        eid = qrec.get("speaker_entity_id") or names.get((qrec.get("speaker") or "").lower())
        if eid:
            speakers.setdefault(eid, []).append(qrec)
    return _render(
        request,
        "entities.html",
        entities=ents,
        total=total,
        roles=roles,
        speakers=speakers,
        kind=kind or "",
        q=q or "",
        page=page,
    )


@router.get("/map", response_class=HTMLResponse)
def map_page(request: Request) -> HTMLResponse:
    f, params = _filter(request)
    incs = queries.all_incident_records(web(request).store(), f)
    return _render(
        request,
        "map.html",
        view=charts.map_view(incs),
        params=params,
        colours=charts.TYPE_COLOURS,
        total=len(incs),
    )


@router.get("/timeline", response_class=HTMLResponse)
def timeline_page(request: Request) -> HTMLResponse:
    f, params = _filter(request)
    incs = queries.all_incident_records(web(request).store(), f)
    return _render(
        request,
        "timeline.html",
        view=charts.timeline_view(incs),
        params=params,
        colours=charts.TYPE_COLOURS,
    )


def _back(path: str, msg: str) -> RedirectResponse:
    from urllib.parse import quote

    return RedirectResponse(f"{path}?msg={quote(msg)}", status_code=303)


def _submitted(
    request: Request,
    path: str,
    review_args: tuple[str, str, dict[str, Any], str, str],
    said: Callable[[str], str],
) -> RedirectResponse:
    """Record a review (`review.submit`'s action, target, payload, reviewer and reason) and
    go back to `path` saying so (`said` of the new review's id) or why not."""
    try:
        done = review.submit(web(request).store(), *review_args)
    except review.ReviewError as exc:
        return _back(path, f"Not recorded: {exc}")
    return _back(path, said(done["review_id"]))


@router.post("/incidents/{incident_id}/review")
def incident_review(
    request: Request,
    incident_id: str,
    action: Annotated[str, Form()],
    reviewer: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
    csrf: Annotated[str, Form()] = "",
    other: Annotated[str, Form()] = "",
    field: Annotated[str, Form()] = "",
    value: Annotated[str, Form()] = "",
    mentions: Annotated[list[str] | None, Form()] = None,
) -> Response:
    check_csrf(request, csrf)
    payload: dict[str, Any] = {}
    if action == "merge":
        payload = {"other": other.strip()}
    elif action == "split":
        payload = {"mentions": [_mention(m) for m in mentions or []]}
    elif action == "correct":
        payload = {"field": field, "value": _value(field, value)}
    elif action not in ("confirm", "reject"):
        raise HTTPException(400, "unknown action")
    args = (action, incident_id, payload, reviewer, reason)
    return _submitted(
        request, f"/incidents/{incident_id}", args, lambda rid: f"Recorded {action} as {rid}."
    )


def _mention(raw: str) -> dict[str, Any]:
    doc_id, _, span = raw.rpartition(":")
    doc_id, _, start = doc_id.rpartition(":")
    return {"document_id": doc_id, "start": _int(start), "end": _int(span)}


def _value(field: str, raw: str) -> Any:
    """Form text to a value: plain text for text fields, JSON or a comma list otherwise."""
    if field in ("type", "status", "summary"):
        return raw.strip()
    try:
        return json.loads(raw)
    except ValueError:
        if field in ("victims", "evidence_types", "perpetrators"):
            return [v.strip() for v in raw.split(",") if v.strip()]
        if field == "location":
            return {"name": raw.strip()}
        raise review.ReviewError(
            f"{field} needs JSON, e.g. "
            + (
                '{"low": 3, "high": 5}'
                if field in ("killed", "wounded")
                else '{"start": "2023-03-01", "end": "2023-03-31", "precision": "month"}'
            )
        ) from None


@router.post("/documents/{document_id}/review")
def document_review(
    request: Request,
    document_id: str,
    original: Annotated[str, Form()] = "",
    reviewer: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
    csrf: Annotated[str, Form()] = "",
) -> Response:
    check_csrf(request, csrf)
    args = ("copy", document_id, {"original": original.strip()}, reviewer, reason)
    return _submitted(
        request, f"/documents/{document_id}", args, lambda rid: f"Recorded copy mark as {rid}."
    )


@router.post("/documents/{document_id}/story")
def document_story(
    request: Request,
    document_id: str,
    other: Annotated[str, Form()] = "",
    reviewer: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
    csrf: Annotated[str, Form()] = "",
) -> Response:
    """A reviewer's word on the document's story: with `other`, the two documents tell one
    story (`same_story`); without, it tells another story than the rest of its own
    (`other_story`)."""
    check_csrf(request, csrf)
    other = other.strip()
    action, payload = ("same_story", {"other": other}) if other else ("other_story", {})
    args = (action, document_id, payload, reviewer, reason)
    return _submitted(
        request, f"/documents/{document_id}", args, lambda rid: f"Recorded {action} as {rid}."
    )


@router.post("/reviews/{review_id}/undo")
def undo_review(
    request: Request,
    review_id: str,
    back: Annotated[str, Form()] = "/",
    reviewer: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
    csrf: Annotated[str, Form()] = "",
) -> Response:
    check_csrf(request, csrf)
    path = back if back.startswith("/") and not back.startswith("//") else "/"
    args: tuple[str, str, dict[str, Any], str, str] = ("undo", review_id, {}, reviewer, reason)
    return _submitted(request, path, args, lambda rid: f"Undid {review_id} ({rid}).")


@router.get("/suggestions", response_class=HTMLResponse)
def suggestions_page(
    request: Request, kind: str | None = None, about: str | None = None
) -> HTMLResponse:
    kind = kind if kind in review.PAIR_KINDS else None
    about = (about or "")[:200] or None
    return _render(
        request,
        "suggestions.html",
        items=suggestions.pending(web(request).store(), kind, about),
        kind=kind or "",
        about=about or "",
        lead=suggestions.lead,
    )


@router.post("/suggestions/decide")
def decide_suggestion(
    request: Request,
    kind: Annotated[str, Form()],
    a: Annotated[str, Form()],
    b: Annotated[str, Form()],
    decision: Annotated[str, Form()],
    reviewer: Annotated[str, Form()] = "",
    reason: Annotated[str, Form()] = "",
    csrf: Annotated[str, Form()] = "",
    back: Annotated[str, Form()] = "/suggestions",
) -> Response:
    """Accept (merge / same_story) or reject (keep_apart) one suggested pair."""
    check_csrf(request, csrf)
    path = back if back.startswith("/") and not back.startswith("//") else "/suggestions"
    if kind not in review.PAIR_KINDS or decision not in ("accept", "reject"):
        raise HTTPException(400, "unknown suggestion kind or decision")
    accept = {"incident": "merge", "story": "same_story"}[kind]
    action = accept if decision == "accept" else "keep_apart"
    payload = {"other": b} | ({"kind": kind} if action == "keep_apart" else {})
    args = (action, a, payload, reviewer, reason)
    return _submitted(
        request, path, args, lambda rid: f"Recorded {action} of {a} and {b} as {rid}."
    )
