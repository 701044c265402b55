"""Media files as evidence: a perceptual hash for images, and one origin per picture or video.

Two outlets posting the same photograph re-encode it (other size, other JPEG quality), so
their bytes differ while a 64-bit pHash moves by a few bits only. Hashes within
`MAX_DISTANCE` bits are one picture: each new image takes the origin of the earliest stored
image that close, found through band keys (64 bits cut into MAX_DISTANCE + 1 bands: two
hashes that close agree exactly on at least one band), so nothing compares all pairs.
Videos and other evidence files keep their exact SHA-256 as origin.
"""

from __future__ import annotations

import io
import mimetypes
import warnings

MAX_DISTANCE = 6  # bits of a 64-bit pHash: re-encodes move 0-4, different photos 20+
BANDS = MAX_DISTANCE + 1
_BITS = 64
# media an outlet re-uses for decoration, not evidence of an event
_NOT_EVIDENCE = {"sticker", "animation", "voice_message", "audio_file"}
_MIN_CONTRAST = 16  # grey levels: a flat image's pHash says nothing about its content


def media_type_of(name: str, declared: str | None = None) -> str:
    if declared and "/" in declared:
        return declared
    guessed, _ = mimetypes.guess_type(name)
    return guessed or "application/octet-stream"


def perceptual_hash(data: bytes) -> str | None:
    """16 hex digits of the image's pHash, or None when it is not a decodable, varied image."""
    try:
        import imagehash
        from PIL import Image

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DecompressionBombWarning and the like
            with Image.open(io.BytesIO(data)) as img:
                img.draft("L", (256, 256))  # JPEG: decode at a fraction of full size
                grey = img.convert("L")
        low, high = grey.getextrema()
        if float(high) - float(low) < _MIN_CONTRAST:  # type: ignore[arg-type]
            return None
        return str(imagehash.phash(grey))
    except Exception:  # Pillow raises many types on hostile bytes; no hash is the answer
        return None


def distance(a: str, b: str) -> int:
    return (int(a, 16) ^ int(b, 16)).bit_count()


def band_keys(phash: str) -> list[str]:
    """One key per band of bits; near hashes share at least one."""
    value = int(phash, 16)
    keys = []
    start = 0
    for band in range(BANDS):
        width = _BITS // BANDS + (1 if band < _BITS % BANDS else 0)
        keys.append(f"{band}:{(value >> start) & ((1 << width) - 1):x}")
        start += width
    return keys


def is_evidence(kind: str, role: str, media_type: str) -> bool:
    """Photos, videos and image or video files; not stickers, GIFs, voice notes or thumbnails."""
    if role in _NOT_EVIDENCE or kind == "thumbnail":
        return False
    return kind == "photo" or media_type.startswith(("image/", "video/"))
