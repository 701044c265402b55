"""Main text and metadata of an HTML page (trafilatura), boilerplate dropped."""

from __future__ import annotations

from dataclasses import dataclass

from corroborator.errors import InputError


@dataclass(frozen=True)
class Page:
    text: str
    title: str | None
    outlet: str | None
    published: str | None
    url: str | None
    language: str | None


def extract_html(html: str, source: str, url: str | None = None) -> Page:
    import trafilatura

    try:
        text = trafilatura.extract(
            html,
            url=url,
            include_comments=False,
            include_tables=False,
            favor_recall=True,
            deduplicate=False,
        )
        meta = trafilatura.extract_metadata(html, default_url=url)
    except Exception as exc:  # trafilatura raises assorted parser errors on broken markup
        raise InputError(source, f"HTML could not be parsed: {type(exc).__name__}") from None
    if not text or not text.strip():
        raise InputError(source, "HTML has no main text (empty body or only boilerplate)")
    published = None
    title = outlet = page_url = language = None
    if meta is not None:
        published = (meta.date or None) and str(meta.date)[:10]
        title = meta.title or None
        outlet = meta.sitename or None
        page_url = meta.url or None
        language = getattr(meta, "language", None) or None
    return Page(
        text=text,
        title=title,
        outlet=outlet,
        published=published,
        url=url or page_url,
        language=language,
    )
