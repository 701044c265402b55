"""`corroborator serve`: the review UI and JSON API, with hostile text in mind.

Every ingested text is treated as an attack: Jinja2 autoescaping everywhere, a strict
Content-Security-Policy (no inline script at all), links only for http(s) URLs. Binding
beyond localhost needs a token; when a token is set every request needs it (cookie after
`?token=` login, or `Authorization: Bearer`). Writes need a per-session CSRF token
(double submit: cookie + hidden field or X-CSRF-Token header) unless they carry the bearer
token, which a browser never sends on its own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlencode

import jinja2
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from corroborator.errors import CorroboratorError
from corroborator.storage.db import Store, open_store

HERE = Path(__file__).parent
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
AUTH_COOKIE = "corroborator_auth"
CSRF_COOKIE = "corroborator_csrf"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


class Web:
    """Per-app state: where the data is, the token, one store per worker thread."""

    def __init__(self, db_url: str, archive_root: Path, token: str | None) -> None:
        self.db_url = db_url
        self.archive_root = archive_root
        self.token = token or None
        self.auth_value = (
            hmac.new(token.encode(), b"corroborator-session", hashlib.sha256).hexdigest()
            if token
            else ""
        )
        self._local = threading.local()
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(HERE / "templates")),
            autoescape=True,
            undefined=jinja2.ChainableUndefined,
        )
        self.templates = Jinja2Templates(env=env)
        self.templates.env.globals["qs"] = _qs
        self.templates.env.filters["safe_url"] = safe_url

    def store(self) -> Store:
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = open_store(self.db_url)
            self._local.store = store
        return store

    def authorised(self, request: Request) -> bool:
        if not self.token:
            return True
        if self.bearer_ok(request):
            return True
        return hmac.compare_digest(request.cookies.get(AUTH_COOKIE, ""), self.auth_value)

    def bearer_ok(self, request: Request) -> bool:
        header = request.headers.get("authorization", "")
        return (
            bool(self.token)
            and header.startswith("Bearer ")
            and hmac.compare_digest(header[7:].strip(), self.token or "")
        )


def safe_url(url: str | None) -> str | None:
    """The URL when it is plain http(s), else None (no javascript:, data:, ...)."""
    if not url:
        return None
    u = url.strip()
    return (
        u
        if u.lower().startswith(("http://", "https://")) and not any(c in u for c in "\"'<> ")
        else None
    )


def _qs(params: dict[str, object], **change: object) -> str:
    merged = {k: v for k, v in {**params, **change}.items() if v not in (None, "")}
    return "?" + urlencode(merged) if merged else "?"


def web(request: Request) -> Web:
    w: Web = request.app.state.web
    return w


def check_csrf(request: Request, submitted: str | None) -> None:
    """Refuse a write unless it carries the bearer token or the session's CSRF token."""
    w = web(request)
    if w.bearer_ok(request):
        return
    cookie = request.cookies.get(CSRF_COOKIE, "")
    given = submitted or request.headers.get("x-csrf-token", "")
    if not cookie or not given or not hmac.compare_digest(cookie, given):
        raise HTTPException(403, "missing or wrong CSRF token; reload the page")
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin.split("://", 1)[-1] != request.headers.get("host"):
        raise HTTPException(403, "cross-origin write refused")


def create_app(
    db_url: str,
    archive_root: Path | str,
    token: str | None = None,
    allowed_hosts: list[str] | None = None,
) -> FastAPI:
    """The ASGI app. `allowed_hosts` (Host header values) guards against DNS rebinding."""
    from corroborator.web import api, pages

    app = FastAPI(
        title="corroborator",
        version="1",
        description="Review UI and JSON API over archived reports and linked incidents.",
    )
    app.state.web = Web(db_url, Path(archive_root), token)
    open_store(db_url).close()  # fail early on a bad database

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        w = web(request)
        host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]")
        if allowed_hosts is not None and host not in allowed_hosts:
            return JSONResponse({"detail": "unknown host"}, status_code=400)
        given = request.query_params.get("token")
        if w.token and given is not None and request.method == "GET":
            if not hmac.compare_digest(given, w.token):
                return _unauthorised(request)
            rest = {k: v for k, v in request.query_params.items() if k != "token"}
            target = request.url.path + ("?" + urlencode(rest) if rest else "")
            resp: Response = RedirectResponse(target, status_code=303)
            resp.set_cookie(AUTH_COOKIE, w.auth_value, httponly=True, samesite="strict")
        elif not w.authorised(request) and not request.url.path.startswith("/static/"):
            resp = _unauthorised(request)
        else:
            csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
            request.state.csrf = csrf
            resp = await call_next(request)
            if CSRF_COOKIE not in request.cookies:
                resp.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict")
        resp.headers["Content-Security-Policy"] = CSP
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers["X-Frame-Options"] = "DENY"
        return resp

    @app.exception_handler(CorroboratorError)
    async def bad_input(request: Request, exc: CorroboratorError) -> Response:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    return app


def _unauthorised(request: Request) -> Response:
    if request.url.path.startswith("/api") or request.url.path == "/openapi.json":
        return JSONResponse(
            {"detail": "token required"}, status_code=401, headers={"WWW-Authenticate": "Bearer"}
        )
    return HTMLResponse(
        "<!doctype html><title>corroborator</title><p>This server needs a token: "
        "open the address given by <code>corroborator serve</code> with "
        "<code>?token=…</code>.</p>",
        status_code=401,
    )


def run_server(
    db_url: str, archive_root: Path | str, host: str, port: int, token: str | None
) -> None:
    """Serve with uvicorn; refuse a non-local bind without a token."""
    import uvicorn

    if host not in LOCAL_HOSTS and not token:
        raise CorroboratorError(
            f"binding {host} exposes the archive: set --token "
            "(or CORROBORATOR_TOKEN), or bind 127.0.0.1"
        )
    hosts = None if host in ("0.0.0.0", "::") else [*LOCAL_HOSTS, host]
    app = create_app(db_url, archive_root, token, allowed_hosts=hosts)
    shown = f"[{host}]" if ":" in host else host
    login = f"?token={token}" if token else ""
    print(f"corroborator: serving http://{shown}:{port}/{login}", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
