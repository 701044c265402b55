"""JSON API: the same records and filters as the pages, paginated; review actions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, Field

from corroborator import review
from corroborator.exports.records import DOCUMENT_FIELDS
from corroborator.models import ENTITY_KINDS, INCIDENT_TYPES, SPEAKER_ROLES, STANCES, STATUSES
from corroborator.web import queries, suggestions
from corroborator.web.app import check_csrf, web

router = APIRouter(prefix="/api", tags=["api"])
Page = Annotated[int, Query(ge=1, le=1_000_000)]
PerPage = Annotated[int, Query(ge=1, le=500)]
Text = Annotated[str | None, Query(max_length=200)]
IsoDate = Annotated[str | None, Query(pattern=r"^\d{4}(-\d{2}(-\d{2})?)?$")]
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such record"}}


class PageOut(BaseModel):
    total: int
    page: int
    per_page: int
    items: list[dict[str, Any]]


class ReviewIn(BaseModel):
    action: Literal[
        "confirm", "reject", "merge", "split", "correct", "copy", "undo", "keep_apart", "same_story"
    ]
    target: str = Field(min_length=1, max_length=200, description="incident, document or review id")
    payload: dict[str, Any] = Field(
        default_factory=dict,
        description=(
            "merge: {other}; split: {mentions: [{document_id, start, end}]}; "
            "correct: {field, value}; copy: {original}; keep_apart: {other, kind: incident|story};"
            " same_story: {other} (document ids)"
        ),
    )
    reviewer: str = Field(min_length=1, max_length=200)
    reason: str = Field(default="", max_length=5000)


def incident_filter(
    type: str | None,
    status: str | None,
    place: str | None,
    date_from: str | None,
    date_to: str | None,
    perpetrator: str | None,
    min_sources: int | None,
    contradiction: bool | None,
    review: str | None,
    q: str | None,
) -> queries.IncidentFilter:
    return queries.IncidentFilter(
        type, status, place, date_from, date_to, perpetrator, min_sources, contradiction, review, q
    )


@router.get("/incidents", response_model=PageOut)
def api_incidents(
    request: Request,
    type: Annotated[Literal[INCIDENT_TYPES] | None, Query()] = None,  # type: ignore[valid-type]
    status: Annotated[Literal[STATUSES] | None, Query()] = None,  # type: ignore[valid-type]
    place: Text = None,
    date_from: IsoDate = None,
    date_to: IsoDate = None,
    perpetrator: Text = None,
    min_sources: Annotated[int | None, Query(ge=0, le=100_000)] = None,
    contradiction: bool | None = None,
    review: Annotated[Literal["confirmed", "rejected", "unreviewed"] | None, Query()] = None,
    q: Text = None,
    sort: Annotated[
        str, Query(pattern=r"^-?(score|date|type|status|place|documents|independent)$")
    ] = "-score",
    page: Page = 1,
    per_page: PerPage = 50,
) -> PageOut:
    f = incident_filter(
        type, status, place, date_from, date_to, perpetrator, min_sources, contradiction, review, q
    )
    total, items = queries.search_incidents(web(request).store(), f, sort, page, per_page)
    return PageOut(total=total, page=page, per_page=per_page, items=items)


@router.get("/incidents/{incident_id}", responses=NOT_FOUND)
def api_incident(request: Request, incident_id: str) -> dict[str, Any]:
    store = web(request).store()
    rec = queries.get_incident(store, incident_id)
    if rec is None:
        raise HTTPException(404, "no such incident")
    ids = [incident_id, *rec.get("merged_from", [])]
    return {"incident": rec, "history": review.history(store, ids)}


@router.get("/documents", response_model=PageOut)
def api_documents(
    request: Request, q: Text = None, outlet: Text = None, page: Page = 1, per_page: PerPage = 50
) -> PageOut:
    total, docs = queries.search_documents(web(request).store(), q, outlet, page, per_page)
    return PageOut(total=total, page=page, per_page=per_page, items=[_doc(d) for d in docs])


def _doc(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d[k] for k in DOCUMENT_FIELDS if k in d}


@router.get("/documents/{document_id}", responses=NOT_FOUND)
def api_document(request: Request, document_id: str) -> dict[str, Any]:
    store = web(request).store()
    found = store.documents([document_id])
    if not found:
        raise HTTPException(404, "no such document")
    rec = _doc(found[0])
    rec["archive_path"] = str(web(request).archive_root / found[0]["archive_relpath"])
    rec["extraction"] = store.extractions([document_id]).get(document_id)
    return rec


@router.get("/quotes", response_model=PageOut)
def api_quotes(
    request: Request,
    document_id: Text = None,
    speaker: Text = None,
    role: Annotated[Literal[SPEAKER_ROLES] | None, Query()] = None,  # type: ignore[valid-type]
    stance: Annotated[Literal[STANCES] | None, Query()] = None,  # type: ignore[valid-type]
    q: Text = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> PageOut:
    total, items = queries.search_quotes(
        web(request).store(), document_id, speaker, role, stance, q, page, per_page
    )
    return PageOut(total=total, page=page, per_page=per_page, items=items)


@router.get("/entities", response_model=PageOut)
def api_entities(
    request: Request,
    kind: Annotated[Literal[ENTITY_KINDS] | None, Query()] = None,  # type: ignore[valid-type]
    q: Text = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> PageOut:
    total, items = queries.search_entities(web(request).store(), kind, q, page, per_page)
    return PageOut(total=total, page=page, per_page=per_page, items=items)


@router.get("/suggestions", response_model=PageOut)
def api_suggestions(
    request: Request,
    kind: Annotated[Literal["incident", "story"] | None, Query()] = None,
    about: Text = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> PageOut:
    """Open "possible same incident / same story" pairs, best first. Accept one with a
    `merge` (incidents) or `same_story` (documents) review, reject it with `keep_apart`."""
    found = suggestions.pending(web(request).store(), kind, about)
    items = [suggestions.public(s) for s in found[(page - 1) * per_page : page * per_page]]
    return PageOut(total=len(found), page=page, per_page=per_page, items=items)


@router.get("/reviews")
def api_reviews(request: Request) -> list[dict[str, Any]]:
    store = web(request).store()
    log = review.reviews(store)
    _live, undone = review.active_reviews(log)
    return [dict(r, undone=r["review_id"] in undone) for r in log]


@router.get("/csrf")
def api_csrf(request: Request) -> dict[str, str]:
    """The session's CSRF token (also set as a cookie): send it as X-CSRF-Token on writes."""
    return {"csrf": request.state.csrf}


@router.post(
    "/reviews",
    status_code=201,
    responses={400: {"description": "Invalid review"}, 403: {"description": "Missing CSRF token"}},
)
def api_review(request: Request, body: ReviewIn) -> dict[str, Any]:
    check_csrf(request, None)
    return review.submit(
        web(request).store(), body.action, body.target, body.payload, body.reviewer, body.reason
    )
