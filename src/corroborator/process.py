"""After ingest: extract stale documents, then rebuild the links that depend on them."""

from __future__ import annotations

from dataclasses import asdict

from corroborator.storage.db import Store


def process(store: Store, progress: bool = False, redo_all: bool = False, batch: int = 32) -> int:
    """Extract every document whose stored extraction is missing or from older stages.

    Each document's extraction commits on its own, so a killed run resumes where it stopped.
    Returns the number of documents extracted.
    """
    from tqdm import tqdm

    from corroborator.linking.build import relink
    from corroborator.nlp.pipeline import default_stages, extract_many, stages_version

    stages = default_stages()
    version = stages_version(stages)
    todo = (
        [d["document_id"] for d in store.documents(with_text=False)]
        if redo_all
        else store.stale_documents(version)
    )
    done = 0
    with tqdm(
        total=len(todo), unit="doc", desc="extract", disable=not progress, leave=False
    ) as bar:
        for i in range(0, len(todo), batch):
            docs = store.documents(todo[i : i + batch])
            pairs = [(d["text"], d["published"]) for d in docs]
            for doc, ex in zip(docs, extract_many(pairs, stages), strict=True):
                store.save_extraction(doc["document_id"], version, asdict(ex))
                done += 1
                bar.update(1)
    if done or redo_all:
        relink(store)
    return done
