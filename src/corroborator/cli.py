"""Command line: thin commands over the library; library errors become one-line exits."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from corroborator import __version__
from corroborator.errors import CorroboratorError
from corroborator.ingest.readers import DOCUMENT_MAX_BYTES
from corroborator.storage.db import Store, archive_root_for, open_store

if TYPE_CHECKING:
    from collections.abc import Callable

    from corroborator.ingest.runner import IngestReport
    from corroborator.linking.prepare import Prepared


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
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Worker processes for extraction on this machine (default: every core).",
)
@pass_ctx
def ingest(
    c: Context,
    paths: tuple[str, ...],
    quiet: bool,
    no_extract: bool,
    dask: str | None,
    jobs: int | None,
) -> None:
    """Archive files or folders (txt, html, json/jsonl, warc, pdf, Telegram exports);
    extract and link."""
    store = c.store
    archive_root = c.archive_root
    ahead: Callable[[], Prepared | None] | None = None
    if no_extract or dask:
        report = _ingest(store, archive_root, paths, quiet)
    else:  # with a pool: archive in a child while this process loads the models
        from corroborator.process import warm_up_beside

        def run() -> IngestReport:
            own = open_store(store.url)
            try:
                return _ingest(own, archive_root, paths, quiet)
            finally:
                own.close()

        def read_ahead(done: IngestReport) -> Prepared | None:
            from corroborator.linking.prepare import prepare

            own = open_store(store.url)
            try:
                return prepare(own, done.stored)
            finally:
                own.close()

        report, ahead = warm_up_beside(run, jobs, read_ahead)
    failed = _finish_ingest(store, report, quiet, no_extract, dask, jobs, ahead)
    if report.rejected or failed:
        sys.exit(1)


def _ingest(store: Store, archive_root: Path, paths: tuple[str, ...], quiet: bool) -> IngestReport:
    from tqdm import tqdm

    from corroborator.ingest.archive import Archive
    from corroborator.ingest.readers import walk
    from corroborator.ingest.runner import ingest_paths

    files = sum(1 for _ in walk(list(paths)))
    bar = tqdm(total=files, unit="file", desc="ingest", disable=not _progress(quiet), leave=False)
    try:
        return ingest_paths(store, Archive(archive_root), paths, on_file=lambda _p: bar.update(1))
    finally:
        bar.close()


def _finish_ingest(
    store: Store,
    report: IngestReport,
    quiet: bool,
    no_extract: bool,
    dask: str | None,
    jobs: int | None = None,
    ahead: Callable[[], Prepared | None] | None = None,
) -> int:
    """Name duplicates and rejections, extract and link what is new, print the tally; the
    number of documents whose extraction failed."""
    for source, existing in report.duplicates:
        click.echo(f"already stored: {source} (document {existing})", err=True)
    for rej in report.rejected:
        click.echo(f"rejected: {rej.source_file}: {rej.reason}", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    extracted, linked, failed = 0, "", 0
    if not no_extract:
        from corroborator.process import process

        done = process(store, progress=_progress(quiet), dask=dask, jobs=jobs, ahead=ahead)
        extracted, failed = done.extracted, len(done.failed)
        for source, reason in done.failed:
            click.echo(f"not extracted: {source}: {reason}", err=True)
        if done.link_mode:
            linked = f"; linked ({done.link_mode}) in {done.link_seconds:.2f} s"
    click.echo(
        f"{len(report.stored)} new document(s) stored, {len(report.duplicates)} already stored, "
        f"{len(report.rejected)} rejected; {extracted} extracted"
        f"{f', {failed} failed' if failed else ''}{linked}; "
        f"{store.document_count()} in {store.url}"
    )
    if not report.stored and not report.rejected:
        click.echo("nothing new to store")
    return failed


@cli.command()
@click.option(
    "--all", "redo_all", is_flag=True, help="Re-extract every document, not only stale ones."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--dask", metavar="ADDRESS", help="Extract on a Dask cluster (an address, or 'local')."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Worker processes for extraction on this machine (default: every core).",
)
@pass_ctx
def extract(c: Context, redo_all: bool, quiet: bool, dask: str | None, jobs: int | None) -> None:
    """Re-run extraction on stored documents (stale ones only, unless --all), then re-link."""
    from corroborator.process import process

    done = process(c.store, progress=_progress(quiet), redo_all=redo_all, dask=dask, jobs=jobs)
    for source, reason in done.failed:
        click.echo(f"not extracted: {source}: {reason}", err=True)
    click.echo(f"{done.extracted} document(s) extracted")
    if done.failed:
        sys.exit(1)


@cli.command()
@click.option(
    "--public-key",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The key every seal must be signed by (PEM, or 64 hex digits).",
)
@click.option(
    "--bundle",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Check an evidence bundle instead of the database (no database needed).",
)
@pass_ctx
def verify(c: Context, public_key: Path | None, bundle: Path | None) -> None:
    """Re-hash every archived original, walk the ledger chain and check every seal."""
    from corroborator.evidence.keys import load_public

    key = load_public(public_key) if public_key else None
    if bundle is not None:
        _verify_bundle(bundle, key)
        return
    from corroborator.ingest.archive import Archive
    from corroborator.verify import verify as run_verify

    report = run_verify(c.store, Archive(c.archive_root), key)
    for problem in report.problems:
        click.echo(f"FAIL {problem}")
    status = "OK" if report.ok else f"FAILED ({len(report.problems)} problem(s))"
    keys = ", ".join(f[:16] for f in report.seal_keys)
    click.echo(
        f"{status}: {report.entries} ledger entries, {report.archive_files} archive files, "
        f"{report.documents} documents checked; {report.seals} seal(s)"
        + (f" by key {keys}" if keys else "")
        + f"; head {report.head[:16] or '-'}"
    )
    if not report.ok:
        sys.exit(1)


def _verify_bundle(path: Path, key: bytes | None) -> None:
    from corroborator.evidence.bundle_check import check_bundle

    report = check_bundle(path, key)
    for problem in report.problems:
        click.echo(f"FAIL {problem}")
    status = "OK" if report.ok else f"FAILED ({len(report.problems)} problem(s))"
    trust = (
        "the given key"
        if key
        else "the bundled key: compare its fingerprint with the one the investigator published"
    )
    click.echo(
        f"{status}: bundle {path}: incident {report.incident_id or '-'}, {report.documents}"
        f" document(s), ledger entries {report.first}-{report.head}, {report.seals} valid"
        f" seal(s) by key {report.key_fingerprint[:16] or '-'} ({trust})"
    )
    if not report.ok:
        sys.exit(1)


@cli.command()
@click.option(
    "--key",
    "key_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Private key file (default: beside the database, or CORROBORATOR_KEY).",
)
@click.option("--force", is_flag=True, help="Replace an existing key (old seals keep their key).")
@click.option(
    "--export-public",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the public key (PEM) here, to hand to whoever will check.",
)
@pass_ctx
def keygen(c: Context, key_path: Path | None, force: bool, export_public: Path | None) -> None:
    """Make an Ed25519 signing key for `seal` (private key 0600; public key beside it)."""
    from corroborator.evidence.keys import default_key_path, generate

    made = generate(key_path or default_key_path(c.db), force, export_public)
    click.echo(f"private key: {made.private} (mode 600; keep it offline and backed up)")
    click.echo(f"public key:  {made.public}" + (f", {export_public}" if export_public else ""))
    click.echo(f"public key (hex): {made.public_hex}")
    click.echo(f"fingerprint:      {made.fingerprint}")


@cli.command()
@click.option(
    "--key",
    "key_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Private key file (default: beside the database, or CORROBORATOR_KEY).",
)
@pass_ctx
def seal(c: Context, key_path: Path | None) -> None:
    """Sign the current ledger head; later entries leave earlier seals intact."""
    from corroborator.evidence.keys import default_key_path, load_private
    from corroborator.evidence.seals import seal_head

    key = load_private(key_path or default_key_path(c.db))
    done = seal_head(c.store, key)
    click.echo(
        f"seal {done.seal_no}: ledger entry {done.ledger_seq} (head {done.entry_hash[:16]}) "
        f"signed at {done.sealed_at} by key {done.key_fingerprint[:16]}"
    )


@cli.command()
@click.argument("incident_id")
@click.option(
    "--key",
    "key_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The sealing key, to sign the bundle (default: as for `seal`).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The zip to write.",
)
@pass_ctx
def bundle(c: Context, incident_id: str, key_path: Path | None, output: Path) -> None:
    """Write one incident's originals, ledger segment, records and seals as a signed zip."""
    from corroborator.evidence.bundle import write_bundle
    from corroborator.evidence.keys import default_key_path, load_private

    key = load_private(key_path or default_key_path(c.db))
    made = write_bundle(c.store, c.archive_root, incident_id, output, key)
    click.echo(
        f"wrote {made.path}: incident {made.incident_id}, {made.documents} document(s),"
        f" {made.originals} original(s), ledger entries {made.first}-{made.head},"
        f" {made.seals} seal(s) by key {made.key_fingerprint[:16]}"
    )


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


@cli.command()
@click.argument("urls", nargs=-1)
@click.option("--feed", "feeds", multiple=True, metavar="URL", help="RSS/Atom feed to poll.")
@click.option(
    "--since",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="Feed entries dated before this day (YYYY-MM-DD) are skipped.",
)
@click.option(
    "--allow-private",
    is_flag=True,
    help="Allow loopback, private, link-local and other non-public addresses.",
)
@click.option(
    "--rate",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="Seconds between requests to one host.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="Connect and read timeout in seconds (a whole response gets 3x).",
)
@click.option(
    "--max-bytes",
    type=click.IntRange(min=1),
    default=DOCUMENT_MAX_BYTES,
    show_default=True,
    help="Largest response body; longer downloads are aborted.",
)
@click.option(
    "--warc-out", type=click.Path(dir_okay=False), help="Also keep the WARC here (.warc.gz)."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--no-extract", is_flag=True, help="Archive and store only; extract later.")
@pass_ctx
def fetch(
    c: Context,
    urls: tuple[str, ...],
    feeds: tuple[str, ...],
    since: dt.datetime | None,
    allow_private: bool,
    rate: float,
    timeout: float,
    max_bytes: int,
    warc_out: str | None,
    quiet: bool,
    no_extract: bool,
) -> None:
    """Capture pages (URL...) and feed entries (--feed) into one WARC, archive and ingest it."""
    from corroborator.fetch.client import Client, Limits
    from corroborator.fetch.run import CaptureRun
    from corroborator.ingest.archive import Archive

    if not urls and not feeds:
        raise click.UsageError("give at least one URL or --feed URL")
    if since and not feeds:
        raise click.UsageError("--since applies to --feed entries only")
    if warc_out and not warc_out.endswith(".warc.gz"):
        raise click.UsageError("--warc-out must name a .warc.gz file")
    if warc_out and not Path(warc_out).resolve().parent.is_dir():
        raise click.UsageError(f"--warc-out {warc_out}: folder does not exist")
    limits = Limits(connect_timeout=timeout, read_timeout=timeout, max_bytes=max_bytes, rate=rate)
    client = Client(limits, allow_private=allow_private)
    store = c.store
    run = CaptureRun()
    for feed in feeds:
        run.capture_feed(client, store, feed, since.date().isoformat() if since else None)
    for url in urls:
        run.capture_page(client, url)
    run.store(store, Archive(c.archive_root), Path(warc_out) if warc_out else None)
    for fail in run.failures:
        click.echo(
            f"{'refused' if fail.refused else 'failed'}: {fail.url}: {fail.reason}", err=True
        )
    for poll in run.feeds:
        if not poll.answered:
            continue
        if poll.not_modified:
            click.echo(f"feed {poll.url}: not modified since the last fetch (304), nothing fetched")
        else:
            click.echo(
                f"feed {poll.url}: {poll.new} new entr{'y' if poll.new == 1 else 'ies'}, "
                f"{poll.already} already captured, {poll.before_since} before --since"
            )
    if run.warc_name:
        click.echo(
            f"captured {len(run.pages)} page(s), {len(run.exchanges)} response(s) into "
            f"{run.warc_name} (archived as {run.warc_relpath})"
        )
    failed = 0
    if run.ingest is not None:
        failed = _finish_ingest(store, run.ingest, quiet, no_extract, None)
    elif not run.failures:
        click.echo("nothing fetched")
    if run.failures or failed or (run.ingest and run.ingest.rejected):
        sys.exit(1)


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
