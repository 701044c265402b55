"""Telegram and PDF reader throughput on generated inputs: docs/s and MB/s.

    PYTHONPATH=src:tests python benchmarks/readers.py [MESSAGES] [PAGES]

Two figures per reader: the reader alone (parse, flatten, page text) and a full ingest
without NLP (archive, media hashes, ledger, SQLite). Inputs are built with the test
builders (`tests/telegram_export.py`, `tests/pdf_report.py`).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from corroborator.ingest.archive import Archive  # noqa: E402
from corroborator.ingest.pdf import pdf_records  # noqa: E402
from corroborator.ingest.runner import ingest_paths  # noqa: E402
from corroborator.ingest.telegram import telegram_records  # noqa: E402
from corroborator.models import RawRecord  # noqa: E402
from corroborator.storage.db import open_store  # noqa: E402
from pdf_report import PAGES, build_pdf  # noqa: E402
from telegram_export import photo, write_export  # noqa: E402

SENTENCES = [
    "Shelling hit a residential area overnight, officials said.",
    "Residents reported that two houses burned near the river.",
    "The regional administration said a school was damaged.",
    "Volunteers evacuated twelve elderly people from the village.",
]


def grow_export(root: Path, messages: int) -> int:
    """The test export, padded with `messages` generated posts (one in 20 with a photo)."""
    write_export(root)
    result = root / "result.json"
    export = json.loads(result.read_text(encoding="utf-8"))
    chat = export["chats"]["list"][1]
    for i in range(messages):
        text = " ".join(SENTENCES[(i + k) % len(SENTENCES)] for k in range(3)) + f" Post {i}."
        msg = {
            "id": 1000 + i,
            "type": "message",
            "date": f"2024-05-{1 + i % 28:02d}T10:00:00",
            "date_unixtime": "1714557600",
            "from": chat["name"],
            "from_id": "channel1001",
            "text": [text, {"type": "hashtag", "text": "#report"}],
            "text_entities": [
                {"type": "plain", "text": text},
                {"type": "hashtag", "text": "#report"},
            ],
        }
        if i % 20 == 0:
            rel = f"photos/bench_{i}.jpg"
            (root / rel).write_bytes(photo(60 + i % 30))
            msg["photo"] = rel
        chat["messages"].append(msg)
    result.write_text(json.dumps(export, ensure_ascii=False, indent=1), encoding="utf-8")
    return sum(f.stat().st_size for f in root.rglob("*") if f.is_file())


def _line(label: str, docs: int, seconds: float, size: int) -> None:
    print(
        f"{label:<28} {docs:>6} docs  {seconds:7.2f} s  {docs / seconds:9.1f} docs/s"
        f"  {size / 2**20 / seconds:7.2f} MB/s"
    )


def bench_telegram(tmp: Path, messages: int) -> None:
    root = tmp / "export"
    root.mkdir()
    size = grow_export(root, messages)
    path = root / "result.json"
    start = time.perf_counter()
    data = path.read_bytes()
    docs = sum(isinstance(r, RawRecord) for r in telegram_records(path, data, str(path)))
    _line("telegram reader", docs, time.perf_counter() - start, len(data))
    store = open_store(str(tmp / "tg.db"))
    start = time.perf_counter()
    report = ingest_paths(store, Archive(tmp / "tg.archive"), [str(root)])
    _line("telegram ingest (no NLP)", len(report.stored), time.perf_counter() - start, size)
    store.close()


def bench_pdf(tmp: Path, pages: int) -> None:
    repeat = max(1, pages // len(PAGES))
    data = build_pdf(PAGES, repeat=repeat)
    folder = tmp / "pdfs"
    folder.mkdir()
    copies = 10
    for i in range(copies):  # distinct bytes: each one a new document
        (folder / f"report_{i}.pdf").write_bytes(data + f"\n% copy {i}\n".encode())
    start = time.perf_counter()
    for i in range(copies):
        for _ in pdf_records(f"report_{i}.pdf", data, "bench"):
            pass
    seconds = time.perf_counter() - start
    _line(f"pdf reader ({repeat * len(PAGES)} pages)", copies, seconds, copies * len(data))
    print(f"{'':<28} {copies * repeat * len(PAGES) / seconds:9.1f} pages/s")
    store = open_store(str(tmp / "pdf.db"))
    start = time.perf_counter()
    report = ingest_paths(store, Archive(tmp / "pdf.archive"), [str(folder)])
    _line(
        "pdf ingest (no NLP)", len(report.stored), time.perf_counter() - start, copies * len(data)
    )
    store.close()


def _scene(seed: int) -> object:
    """A random picture: sky, ground, buildings, a smoke plume, noise."""
    from PIL import Image, ImageDraw, ImageFilter

    rng = random.Random(seed)
    img = Image.new("RGB", (480, 360), tuple(rng.randrange(256) for _ in range(3)))
    draw = ImageDraw.Draw(img)
    horizon = rng.randrange(120, 260)
    draw.rectangle([0, horizon, 480, 360], fill=tuple(rng.randrange(256) for _ in range(3)))
    for _ in range(rng.randrange(3, 9)):
        x, w, h = rng.randrange(480), rng.randrange(20, 90), rng.randrange(30, 200)
        draw.rectangle(
            [x, horizon - h, x + w, horizon], fill=tuple(rng.randrange(256) for _ in range(3))
        )
    cx, cy, r = rng.randrange(480), rng.randrange(horizon), rng.randrange(20, 80)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(rng.randrange(60),) * 3)
    return img.filter(ImageFilter.GaussianBlur(1))


def bench_phash(pictures: int = 40) -> None:
    """Distances between a picture and its re-encodes (other size, JPEG quality, light crop)
    against distances between different pictures: where MAX_DISTANCE sits between them."""
    import io

    from corroborator.ingest.media import MAX_DISTANCE, distance, perceptual_hash

    def jpeg(img: Any, quality: int) -> bytes:
        out = io.BytesIO()
        img.save(out, "JPEG", quality=quality)
        return out.getvalue()

    variants = {"re-encoded/resized": ((75, 1.0, 0), (50, 0.6, 0), (30, 0.5, 0))}
    variants["cropped 6 px a side"] = ((85, 1.0, 6),)
    found: dict[str, list[int]] = {name: [] for name in variants}
    hashes = []
    for seed in range(pictures):
        img: Any = _scene(seed)
        base = perceptual_hash(jpeg(img, 92))
        assert base
        hashes.append(base)
        for name, todo in variants.items():
            for quality, scale, crop in todo:
                w, h = img.size
                copy = img.crop((crop, crop, w - crop, h - crop))
                copy = copy.resize((int(copy.width * scale), int(copy.height * scale)))
                other = perceptual_hash(jpeg(copy, quality))
                assert other
                found[name].append(distance(base, other))
    for name, dists in found.items():
        within = sum(d <= MAX_DISTANCE for d in dists) / len(dists)
        print(f"phash {name:<20} max {max(dists):>2} bits, {within:6.1%} within {MAX_DISTANCE}")
    different = [distance(a, b) for i, a in enumerate(hashes) for b in hashes[i + 1 :]]
    false = sum(d <= MAX_DISTANCE for d in different) / len(different)
    print(
        f"phash {'different pictures':<20} min {min(different):>2} bits, {false:6.2%} within"
        f" {MAX_DISTANCE} ({len(different)} pairs)"
    )


def main() -> None:
    messages = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    pages = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    with tempfile.TemporaryDirectory() as tmp:
        bench_telegram(Path(tmp), messages)
        bench_pdf(Path(tmp), pages)
    bench_phash()


if __name__ == "__main__":
    main()
