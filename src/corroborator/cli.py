"""Command line: thin commands over the library; library errors become one-line exits."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from corroborator import __version__
from corroborator.errors import CorroboratorError
from corroborator.storage.db import Store, archive_root_for, open_store


class Context:
    def __init__(self, db: str | None) -> None:
        self.db = db
        self._store: Store | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store(self.db)
        return self._store

    @property
    def archive_root(self) -> Path:
        return archive_root_for(self.store.url)


pass_ctx = click.make_pass_decorator(Context)


class Group(click.Group):
    """Turns library errors into one-line `Error: ...` exits (also under CliRunner)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CorroboratorError as exc:
            raise click.ClickException(str(exc)) from None


def _progress(quiet: bool) -> bool:
    return not quiet and sys.stderr.isatty()


@click.group(cls=Group)
@click.version_option(__version__)
@click.option(
    "--db",
    envvar="CORROBORATOR_DB",
    help="SQLite path or postgresql:// URL (default ./corroborator.db).",
)
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """corroborator: archive reports, extract alleged incidents, link and corroborate them."""
    ctx.obj = Context(db)


@cli.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--no-extract", is_flag=True, help="Archive and store only; extract later.")
@click.option(
    "--dask", metavar="ADDRESS", help="Extract on a Dask cluster (an address, or 'local')."
)
@pass_ctx
def ingest(
    c: Context, paths: tuple[str, ...], quiet: bool, no_extract: bool, dask: str | None
) -> None:
    """Archive files or folders (txt, html, json/jsonl, warc), extract and link."""
    from tqdm import tqdm

    from corroborator.ingest.archive import Archive
    from corroborator.ingest.readers import walk
    from corroborator.ingest.runner import ingest_paths

    store = c.store
    archive = Archive(c.archive_root)
    files = sum(1 for _ in walk(list(paths)))
    bar = tqdm(total=files, unit="file", desc="ingest", disable=not _progress(quiet), leave=False)
    try:
        report = ingest_paths(store, archive, paths, on_file=lambda _p: bar.update(1))
    finally:
        bar.close()
    for source, existing in report.duplicates:
        click.echo(f"already stored: {source} (document {existing})", err=True)
    for rej in report.rejected:
        click.echo(f"rejected: {rej.source_file}: {rej.reason}", err=True)
    extracted, linked = 0, ""
    if not no_extract:
        from corroborator.process import process

        done = process(store, progress=_progress(quiet), dask=dask)
        extracted = done.extracted
        if done.link_mode:
            linked = f"; linked ({done.link_mode}) in {done.link_seconds:.2f} s"
    click.echo(
        f"{len(report.stored)} new document(s) stored, {len(report.duplicates)} already stored, "
        f"{len(report.rejected)} rejected; {extracted} extracted{linked}; "
        f"{store.document_count()} in {store.url}"
    )
    if not report.stored and not report.rejected:
        click.echo("nothing new to store")
    if report.rejected:
        sys.exit(1)


@cli.command()
@click.option(
    "--all", "redo_all", is_flag=True, help="Re-extract every document, not only stale ones."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--dask", metavar="ADDRESS", help="Extract on a Dask cluster (an address, or 'local')."
)
@pass_ctx
def extract(c: Context, redo_all: bool, quiet: bool, dask: str | None) -> None:
    """Re-run extraction on stored documents (stale ones only, unless --all), then re-link."""
    from corroborator.process import process

    done = process(c.store, progress=_progress(quiet), redo_all=redo_all, dask=dask)
    click.echo(f"{done.extracted} document(s) extracted")


@cli.command()
@pass_ctx
def verify(c: Context) -> None:
    """Re-hash every archived original and walk the ledger chain."""
    from corroborator.ingest.archive import Archive
    from corroborator.verify import verify as run_verify

    report = run_verify(c.store, Archive(c.archive_root))
    for problem in report.problems:
        click.echo(f"FAIL {problem}")
    status = "OK" if report.ok else f"FAILED ({len(report.problems)} problem(s))"
    click.echo(
        f"{status}: {report.entries} ledger entries, {report.archive_files} archive files, "
        f"{report.documents} documents checked; head {report.head[:16] or '-'}"
    )
    if not report.ok:
        sys.exit(1)


@cli.command()
@click.option(
    "--what",
    type=click.Choice(["incidents", "documents", "quotes", "entities"]),
    default="incidents",
    show_default=True,
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "csv", "geojson", "acled", "ucdp"]),
    default="jsonl",
    show_default=True,
)
@click.option("--output", type=click.Path(dir_okay=False), help="File to write (default stdout).")
@pass_ctx
def export(c: Context, what: str, fmt: str, output: str | None) -> None:
    """Write records as JSON Lines, CSV, GeoJSON, or ACLED/UCDP-style CSV."""
    from corroborator.exports import write_export

    if fmt in ("geojson", "acled", "ucdp") and what != "incidents":
        raise click.UsageError(f"--format {fmt} applies to incidents only")
    if output:
        tmp = Path(output + ".partial")
        with tmp.open("w", encoding="utf-8", newline="") as fh:
            write_export(c.store, c.archive_root, what, fmt, fh)
        tmp.replace(output)
    else:
        write_export(c.store, c.archive_root, what, fmt, sys.stdout)


@cli.command()
@click.option("--limit", default=50, show_default=True)
@pass_ctx
def incidents(c: Context, limit: int) -> None:
    """Incidents, best-corroborated first."""
    from corroborator.storage.queries import list_incidents

    rows = list_incidents(c.store, limit=limit)
    if not rows:
        click.echo("no incidents (ingest some documents first)")
        return
    click.echo(
        f"{'incident':<14} {'type':<22} {'status':<12} {'docs':>4} {'indep':>5} "
        f"{'score':>5} {'contra':<6} summary"
    )
    for r in rows:
        flag = "yes" if r["has_contradiction"] else ""
        rec: dict[str, Any] = r["record"]
        click.echo(
            f"{r['incident_id']:<14} {r['type']:<22} {r['status']:<12} {r['documents']:>4} "
            f"{r['independent_sources']:>5} {r['score']:>5.2f} {flag:<6} {rec['summary']}"
        )


@cli.command()
@click.argument("incident_id")
@pass_ctx
def show(c: Context, incident_id: str) -> None:
    """One incident: every field with its source words, mentions, quotes and sources."""
    from corroborator.showing import render_incident

    click.echo(render_incident(c.store, incident_id))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8765, show_default=True)
@click.option(
    "--token", envvar="CORROBORATOR_TOKEN", help="Required when binding beyond localhost."
)
@pass_ctx
def serve(c: Context, host: str, port: int, token: str | None) -> None:
    """Review UI and JSON API."""
    from corroborator.web.app import run_server

    run_server(c.store.url, c.archive_root, host, port, token)


@cli.command(name="eval")
@click.argument("gold", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Every figure as one JSON object.")
@pass_ctx
def eval_cmd(c: Context, gold: str, as_json: bool) -> None:
    """Score the database against a gold file (P/R/F1 per kind, field accuracy)."""
    from corroborator import eval_places, evaluation
    from corroborator.exports.records import all_records

    try:
        gold_records = evaluation.load_gold(gold)
    except ValueError as exc:
        raise CorroboratorError(f"{gold}: {exc}") from None
    recs = all_records(c.store, c.archive_root)
    report = evaluation.evaluate(
        gold_records,
        recs["documents"],
        recs["incidents"],
        recs["quotes"],
        recs["entities"],
        eval_places.system_places(c.store),
    )
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=1))
    else:
        click.echo(evaluation.format_report(report))


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
