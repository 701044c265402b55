"""What a full relink reads of new documents' own words, read ahead of it.

An ingest with a pool archives in a forked child while the parent loads the models; once
the archive is done, a second child reads what linking reads of each new document's text
alone, beside the extraction workers: its MinHash signature (stored, as linking stores
it), its story terms (`stories.Reading`) and the origins its lead cites. A full relink
after extraction would otherwise read them on one core while the other idles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from corroborator.linking import copies, state, stories
from corroborator.linking.build import store_signatures
from corroborator.storage.db import Store


@dataclass
class Prepared:
    readings: dict[str, stories.Reading] = field(default_factory=dict)
    origins: dict[str, list[str]] = field(default_factory=dict)  # `copies.origin_names`


def prepare(store: Store, doc_ids: list[str]) -> Prepared | None:
    """None where the new documents will be linked incrementally (their readings would
    go unused) or are too many to hold (READ_BATCH)."""
    if not doc_ids or len(doc_ids) > stories.READ_BATCH or state.usable(store, doc_ids):
        return None
    docs = store.documents(doc_ids)
    store_signatures(store, docs)
    return Prepared(
        {
            d["document_id"]: stories.read_words(
                stories.headed(d["title"], d["text"]), d["language"]
            )
            for d in docs
        },
        {d["document_id"]: copies.origin_names(d["text"]) for d in docs},
    )
