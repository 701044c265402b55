"""Sealed ledger heads and evidence bundles, used as an investigator and an outside checker
would: keygen, ingest, seal, bundle, then verify the bundle somewhere with no database."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_cli
from corroborator.evidence.layout import MANIFEST, MANIFEST_SIG, manifest_bytes
from corroborator.ingest.archive import sha256_bytes
from corroborator.ledger import GENESIS, make_entry
from test_postgres import pg_env  # noqa: F401 (the fixture)

# Two reports of one shooting, and (ingested later) two records of one hospital strike.
SHOOTING_A = (
    "Villagers in Novoselivka said soldiers of the 64th Motor Rifle Brigade shot four civilians"
    ' near the school on 12 March 2022. "They lined the men up against the fence and fired,"'
    " said Olena Kravets, a teacher who saw it from her window. The regional prosecutor said an"
    " investigation had been opened.\n"
)
SHOOTING_B = (
    "Four civilians were killed in Novoselivka on 12 March 2022, according to residents who"
    ' spoke to reporters. A local teacher, Olena Kravets, said the soldiers "fired without'
    ' saying a word". Reporters could not independently verify the account.\n'
)
HOSPITAL = [
    {
        "id": "hospital-1",
        "outlet": "Valley Courier",
        "published": "2023-06-04",
        "text": "Rockets struck the district hospital in Stepanivka on the night of 3 June 2023,"
        " killing two nurses and wounding eleven patients, the regional health department"
        " said. Doctors moved the surviving patients into the basement.",
    },
    {
        "id": "hospital-2",
        "outlet": "Evening Ledger",
        "published": "2023-06-05",
        "text": "A rocket attack on the hospital in Stepanivka killed two nurses on 3 June 2023,"
        ' local officials said. "The ward where I worked is gone," said Maryna Tkach, a surgeon'
        " at the hospital.",
    },
]


def _write_shooting(folder: Path) -> Path:
    folder.mkdir()
    (folder / "novoselivka_villagers.txt").write_text(SHOOTING_A, encoding="utf-8")
    (folder / "novoselivka_teacher.txt").write_text(SHOOTING_B, encoding="utf-8")
    return folder


def _write_hospital(folder: Path) -> Path:
    path = folder / "stepanivka.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in HOSPITAL), encoding="utf-8")
    return path


def _ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


def _incident_of(cli, source_file: str) -> str:
    rows = [json.loads(x) for x in _ok(cli("export", "--what", "incidents")).splitlines()]
    for r in rows:
        if any(m["source_file"] == source_file for m in r["mentions"]):
            return r["incident_id"]
    raise AssertionError(f"no incident mentions {source_file}: {rows}")


@pytest.fixture
def sealed(cli, db: Path, tmp_path: Path) -> dict[str, Path | str]:
    """keygen -> ingest the shooting reports -> seal -> bundle its incident."""
    _ok(cli("keygen"))
    _ok(cli("ingest", "--quiet", str(_write_shooting(tmp_path / "shooting"))))
    _ok(cli("seal"))
    incident = _incident_of(cli, "novoselivka_villagers.txt")
    out = tmp_path / "out" / "evidence.zip"
    assert "wrote" in _ok(cli("bundle", incident, "-o", str(out)))
    return {
        "incident": incident,
        "bundle": out,
        "key": db.with_suffix(".key"),
        "pub": db.with_suffix(".pub"),
    }


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _repack(
    src: Path, dst: Path, edit: Callable[[str, bytes], bytes], fix_manifest: bool = False
) -> Path:
    """A copy of a bundle with members edited; `fix_manifest` re-hashes them as a forger would."""
    members = {name: edit(name, data) for name, data in _members(src).items()}
    if fix_manifest:
        members[MANIFEST] = manifest_bytes(
            {
                n: {"sha256": sha256_bytes(d), "size": len(d)}
                for n, d in members.items()
                if n != MANIFEST
            }
        )
    with zipfile.ZipFile(dst, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return dst


def _fails(result) -> list[str]:
    assert result.exit_code == 1, result.output
    return [ln for ln in result.output.splitlines() if ln.startswith("FAIL ")]


def _forged(result) -> list[str]:
    """Failures of a bundle re-hashed by a forger: the manifest signature, then the rest."""
    fails = _fails(result)
    assert fails[0].startswith(f"FAIL {MANIFEST_SIG}: not a signature over {MANIFEST}"), fails
    return fails[1:]


def _sql(db: Path, *statements: str) -> None:
    conn = sqlite3.connect(db)
    for s in statements:
        conn.execute(s)
    conn.commit()
    conn.close()


def test_keygen_writes_a_private_key_only_its_owner_reads_and_never_overwrites_it(
    cli, db: Path, tmp_path: Path
) -> None:
    exported = tmp_path / "handout" / "investigator.pub"
    out = _ok(cli("keygen", "--export-public", str(exported)))
    key = db.with_suffix(".key")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    pub = db.with_suffix(".pub").read_bytes()
    assert pub.startswith(b"-----BEGIN PUBLIC KEY-----") and exported.read_bytes() == pub
    assert "fingerprint:" in out

    again = cli("keygen")
    assert again.exit_code == 1
    assert str(key) in again.output and "--force" in again.output
    assert key.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    before = key.read_bytes()
    _ok(cli("keygen", "--force"))
    assert key.read_bytes() != before and stat.S_IMODE(key.stat().st_mode) == 0o600
    assert not [p for p in db.parent.iterdir() if p.name.startswith(".")]  # no temp files left


def test_seal_refuses_a_missing_or_exposed_key_and_an_empty_ledger(cli, db: Path) -> None:
    missing = cli("seal")
    assert missing.exit_code == 1 and "keygen" in missing.output
    _ok(cli("keygen"))
    empty = cli("seal")
    assert empty.exit_code == 1 and "ledger is empty" in empty.output
    unsealed = cli("verify", "--public-key", str(db.with_suffix(".pub")))
    assert unsealed.exit_code == 1 and "FAIL no seals" in unsealed.output
    db.with_suffix(".key").chmod(0o644)
    exposed = cli("seal")
    assert exposed.exit_code == 1 and "readable by others" in exposed.output


def test_bundle_verifies_offline_with_only_the_public_key(sealed: dict, tmp_path: Path) -> None:
    elsewhere = tmp_path / "outside_party"
    elsewhere.mkdir()
    zip_copy = shutil.copy(sealed["bundle"], elsewhere / "evidence.zip")
    pub_copy = shutil.copy(sealed["pub"], elsewhere / "investigator.pub")
    env = {"CORROBORATOR_DB": str(elsewhere / "none.db"), "CORROBORATOR_ARCHIVE": ""}
    done = run_cli(
        "verify", "--bundle", str(zip_copy), "--public-key", str(pub_copy), env=env, cwd=elsewhere
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"OK: bundle {zip_copy}: incident {sealed['incident']}")
    assert "2 document(s)" in done.stdout and "1 valid seal(s)" in done.stdout
    assert sorted(p.name for p in elsewhere.iterdir()) == ["evidence.zip", "investigator.pub"]

    members = _members(sealed["bundle"])
    originals = [n for n in members if n.startswith("originals/")]
    assert len(originals) == 2
    assert {SHOOTING_A.encode(), SHOOTING_B.encode()} == {members[n] for n in originals}
    docs = [json.loads(x) for x in members["records/documents.jsonl"].splitlines()]
    assert {d["archive_path"] for d in docs} == set(originals)


def test_a_flipped_byte_in_any_bundle_file_is_named(cli, sealed: dict, tmp_path: Path) -> None:
    names = list(_members(sealed["bundle"]))
    assert {MANIFEST, MANIFEST_SIG} <= set(names) and len(names) >= 12
    for name in names:
        size = len(_members(sealed["bundle"])[name])
        for at in sorted({0, size // 3, size // 2, 2 * size // 3, size - 2}):

            def flip(n: str, data: bytes, name: str = name, at: int = at) -> bytes:
                return data if n != name else data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]

            bad = _repack(sealed["bundle"], tmp_path / "flipped.zip", flip)
            fails = _fails(cli("verify", "--bundle", str(bad)))
            assert any(name in ln for ln in fails), (name, at, fails)
            if name not in (MANIFEST, MANIFEST_SIG):
                assert f"FAIL {name}: SHA-256 differs from {MANIFEST}" in fails, (name, fails)
            else:
                assert f"FAIL {MANIFEST_SIG}: not a signature over {MANIFEST}" in fails[-1]


def test_a_forger_who_rehashes_the_manifest_is_caught_by_ledger_seal_and_offsets(
    cli, sealed: dict, tmp_path: Path
) -> None:
    def reorder(n: str, data: bytes) -> bytes:
        if n != "ledger.jsonl":
            return data
        lines = data.splitlines(keepends=True)
        lines[1], lines[2] = lines[2], lines[1]
        return b"".join(lines)

    fails = _forged(
        cli(
            "verify",
            "--bundle",
            str(_repack(sealed["bundle"], tmp_path / "r.zip", reorder, fix_manifest=True)),
        )
    )
    assert fails and all(ln.startswith("FAIL ledger.jsonl: ") for ln in fails), fails
    assert any("out of sequence" in ln for ln in fails)
    assert any("ledger entry 2 is the first that no longer matches the seal" in ln for ln in fails)

    def retext(n: str, data: bytes) -> bytes:
        return (
            data.replace(b"four civilians", b"five civilians") if n.startswith("records/") else data
        )

    fails = _forged(
        cli(
            "verify",
            "--bundle",
            str(_repack(sealed["bundle"], tmp_path / "t.zip", retext, fix_manifest=True)),
        )
    )
    assert any(
        ln.startswith("FAIL records/documents.jsonl: document ") and "text differs" in ln
        for ln in fails
    ), fails

    def backdate(n: str, data: bytes) -> bytes:
        if n != "seals.json":
            return data
        seals = json.loads(data)
        seals[0]["sealed_at"] = "2020-01-01T00:00:00Z"
        return json.dumps(seals).encode()

    fails = _forged(
        cli(
            "verify",
            "--bundle",
            str(_repack(sealed["bundle"], tmp_path / "s.zip", backdate, fix_manifest=True)),
        )
    )
    assert "FAIL seals.json: seal 1 (ledger entry 4): signature does not verify" in fails[0]

    def shift_quotes(n: str, data: bytes) -> bytes:
        if n != "records/quotes.jsonl":
            return data
        quotes = [json.loads(x) for x in data.splitlines()]
        for q in quotes:
            q["start"] += 3
        return "".join(json.dumps(q) + "\n" for q in quotes).encode()

    fails = _forged(
        cli(
            "verify",
            "--bundle",
            str(_repack(sealed["bundle"], tmp_path / "q.zip", shift_quotes, fix_manifest=True)),
        )
    )
    assert fails and all(ln.startswith("FAIL records/quotes.jsonl: quote ") for ln in fails)
    assert all("do not hold its text" in ln for ln in fails)


def test_a_reordered_ledger_entry_in_the_database_breaks_the_seal(
    cli, db: Path, sealed: dict, tmp_path: Path
) -> None:
    conn = sqlite3.connect(db)
    second, third = (
        conn.execute("SELECT * FROM ledger WHERE seq = ?", (n,)).fetchone()[1:] for n in (2, 3)
    )
    conn.execute("DELETE FROM ledger WHERE seq IN (2, 3)")
    conn.executemany("INSERT INTO ledger VALUES (?,?,?,?,?,?,?,?,?,?)", [(2, *third), (3, *second)])
    conn.commit()
    conn.close()
    out = cli("verify").output
    assert "FAIL seal 1 (ledger entry 4): ledger entry 2 is the first that no longer matches" in out
    refused = cli("bundle", sealed["incident"], "-o", str(tmp_path / "again.zip"))
    assert refused.exit_code == 1 and "not bundling" in refused.output
    assert not (tmp_path / "again.zip").exists()
    assert cli("seal").exit_code == 1


def test_a_wrong_public_key_fails(cli, db: Path, sealed: dict, tmp_path: Path) -> None:
    _ok(cli("keygen", "--key", str(tmp_path / "someone_else.key")))
    other = tmp_path / "someone_else.pub"
    fails = _fails(cli("verify", "--bundle", str(sealed["bundle"]), "--public-key", str(other)))
    assert any(ln.startswith("FAIL public_key.pem: bundled key") for ln in fails)
    assert any(
        ln.startswith("FAIL seals.json: seal 1") and "not by the given key" in ln for ln in fails
    )
    assert any(ln.startswith(f"FAIL {MANIFEST_SIG}: not a signature") for ln in fails)
    fails = _fails(cli("verify", "--public-key", str(other)))
    assert any("not by the given key" in ln for ln in fails)
    wrong = tmp_path / "by_someone_else.zip"
    refused = cli(
        "bundle", sealed["incident"], "--key", str(other.with_suffix(".key")), "-o", str(wrong)
    )
    assert refused.exit_code == 1 and "was made by key" in refused.output and not wrong.exists()
    assert _ok(cli("verify", "--public-key", str(sealed["pub"]))).startswith("OK: ")
    not_a_key = tmp_path / "note.txt"
    not_a_key.write_text("not a key\n", encoding="utf-8")
    bad = cli("verify", "--public-key", str(not_a_key))
    assert bad.exit_code == 1 and f"{not_a_key}: not an Ed25519 public key" in bad.output


def test_altered_entry_names_the_first_entry_that_no_longer_matches_each_seal(
    cli, db: Path, sealed: dict, tmp_path: Path
) -> None:
    _ok(cli("ingest", "--quiet", str(_write_hospital(tmp_path))))
    _ok(cli("seal"))  # seal 2 covers entries 1-7; seal 1 still covers 1-4
    assert "2 seal(s)" in _ok(cli("verify"))

    conn = sqlite3.connect(db)
    (source,) = conn.execute("SELECT source FROM ledger WHERE seq = 6").fetchone()
    conn.close()
    _sql(db, "UPDATE ledger SET source = 'forged.jsonl' WHERE seq = 6")
    out = cli("verify").output
    assert "seal 1" not in out
    assert (
        "FAIL seal 2 (ledger entry 7): ledger entry 6 is the first that no longer matches the"
        " seal (entries up to 5 still do)" in out
    )
    _sql(db, f"UPDATE ledger SET source = '{source}' WHERE seq = 6")
    assert _ok(cli("verify")).startswith("OK: ")

    _sql(db, "DELETE FROM ledger WHERE seq = 7")  # a truncated tail
    out = cli("verify").output
    assert "seal 1" not in out
    assert "FAIL seal 2 (ledger entry 7): ledger entry 7 is the first that no longer matches" in out

    _sql(db, "UPDATE ledger SET source = 'novoselivka_teacher.txt' WHERE seq = 3")
    out = cli("verify").output
    assert "FAIL seal 1 (ledger entry 4): ledger entry 3 is the first that no longer matches" in out
    assert "FAIL seal 2 (ledger entry 7): ledger entry 3 is the first that no longer matches" in out


def test_a_chain_rewritten_with_fresh_hashes_is_caught_by_the_seal(
    cli, db: Path, sealed: dict, tmp_path: Path
) -> None:
    _ok(cli("ingest", "--quiet", str(_write_hospital(tmp_path))))
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    rows = [dict(r) for r in conn.execute("SELECT * FROM ledger ORDER BY seq")]
    prev = GENESIS
    for r in rows:
        source = "forged.txt" if r["seq"] == 2 else r["source"]
        e = make_entry(
            r["seq"], prev, r["kind"], r["subject"], r["sha256"], source,
            r["created_at"], r["tool_version"], json.loads(r["payload"]),
        )  # fmt: skip
        conn.execute(
            "UPDATE ledger SET source = ?, prev_hash = ?, entry_hash = ? WHERE seq = ?",
            (e.source, e.prev_hash, e.entry_hash, e.seq),
        )
        prev = e.entry_hash
    conn.commit()
    conn.close()
    out = cli("verify").output
    assert "contents altered" not in out  # the forger's chain links everywhere ...
    assert "FAIL seal 1 (ledger entry 4): the chain was rewritten with fresh hashes" in out


def test_ingesting_after_a_seal_keeps_the_old_seal_and_its_bundles(
    cli, sealed: dict, tmp_path: Path
) -> None:
    _ok(cli("ingest", "--quiet", str(_write_hospital(tmp_path))))
    assert "OK: 7 ledger entries" in _ok(cli("verify", "--public-key", str(sealed["pub"])))
    hospital = _incident_of(cli, "hospital-2")
    early = tmp_path / "early.zip"
    refused = cli("bundle", hospital, "-o", str(early))
    assert refused.exit_code == 1 and "not sealed yet" in refused.output
    assert not early.exists()

    old = tmp_path / "old_incident_again.zip"
    _ok(cli("bundle", sealed["incident"], "-o", str(old)))
    assert _ok(cli("verify", "--bundle", str(old), "--public-key", str(sealed["pub"])))
    assert _members(old)["ledger.jsonl"] == _members(sealed["bundle"])["ledger.jsonl"]

    _ok(cli("seal"))
    late = tmp_path / "hospital.zip"
    _ok(cli("bundle", hospital, "-o", str(late)))
    out = _ok(cli("verify", "--bundle", str(late), "--public-key", str(sealed["pub"])))
    assert "ledger entries 5-7" in out  # the JSONL file's archive entry, then its two records
    assert len([n for n in _members(late) if n.startswith("originals/")]) == 1
    assert _ok(cli("verify", "--bundle", str(sealed["bundle"]))).startswith("OK: ")


def test_a_bundle_that_is_not_a_zip_is_one_line(cli, tmp_path: Path) -> None:
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"definitely not a zip")
    result = cli("verify", "--bundle", str(junk))
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {junk}: not a readable zip archive (File is not a zip file)"
    ]


@pytest.mark.postgres
@pytest.mark.skipif(
    not os.environ.get("CORROBORATOR_TEST_PG"),
    reason="CORROBORATOR_TEST_PG not set (.ci/run starts a server)",
)
def test_seal_and_bundle_on_postgresql(pg_env: dict[str, str], tmp_path: Path) -> None:  # noqa: F811
    env = {**pg_env, "CORROBORATOR_KEY": str(tmp_path / "keys" / "investigator.key")}
    assert "CORROBORATOR_KEY" in run_cli("seal", env=pg_env).stderr  # no default beside a URL
    for args in (
        ["keygen"],
        ["ingest", "--quiet", str(_write_shooting(tmp_path / "shooting"))],
        ["seal"],
    ):
        done = run_cli(*args, env=env)
        assert done.returncode == 0, done.stderr
    exported = run_cli("export", "--what", "incidents", env=env).stdout.splitlines()
    incident = json.loads(exported[0])["incident_id"]
    out = tmp_path / "pg.zip"
    assert run_cli("bundle", incident, "-o", str(out), env=env).returncode == 0
    pub = str(tmp_path / "keys" / "investigator.pub")
    done = run_cli("verify", "--bundle", str(out), "--public-key", pub)
    assert done.returncode == 0, done.stdout
    assert run_cli("verify", "--public-key", pub, env=env).returncode == 0


def test_no_bundle_is_written_from_an_original_changed_on_disk(
    cli, db: Path, sealed: dict, tmp_path: Path
) -> None:
    archived = next((db.parent / "test.archive").glob("*/*.txt"))
    archived.write_bytes(archived.read_bytes().replace(b"civilians", b"civilianz"))
    out = tmp_path / "tampered.zip"
    refused = cli("bundle", sealed["incident"], "-o", str(out))
    assert refused.exit_code == 1
    assert "fails its own check: originals/" in refused.output
    assert "SHA-256 differs from ledger entry" in refused.output
    assert not out.exists() and not [p for p in out.parent.iterdir() if p.name.startswith(".")]
