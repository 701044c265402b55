"""What a document says about its own origin, beside what its words cite.

A Telegram forward names the channel it repeats (and, when that message is stored, which
document it is); a photograph or video carries a media origin shared by every re-encoded
copy (`ingest.media`). Linking reads both from here: a forward is a copy of its original,
counted under the original channel, and reports sharing a picture are one source.
"""

from __future__ import annotations

from typing import Any

from corroborator.storage.db import Store


def annotate(store: Store, docs: list[dict[str, Any]]) -> None:
    """Add `forward_of`, `source_outlet` and `media_origins` to each document row."""
    ids = [d["document_id"] for d in docs]
    forwards = store.document_origins(ids)
    media = store.document_media(ids)
    for d in docs:
        fw = forwards.get(d["document_id"])
        original = fw["original_id"] if fw else None
        d["forward_of"] = original if original != d["document_id"] else None
        d["source_outlet"] = fw["origin"] if fw else None
        d["media_origins"] = tuple(
            sorted(
                {m["media_origin"] for m in media.get(d["document_id"], []) if m["media_origin"]}
            )
        )
