"""Every table, as named and ordered migrations (portable SQL: SQLite and PostgreSQL).

Derived tables (extractions, links) are rebuilt by later stages; `documents`, `ledger`,
`archive_files`, `reviews` and `rejections` are append-only records of what happened.
"""

MIGRATIONS: list[tuple[str, list[str]]] = [
    (
        "0001_foundation",
        [
            """CREATE TABLE ledger (
                seq INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                subject TEXT NOT NULL,
                sha256 TEXT NOT NULL,
                source TEXT NOT NULL,
                created_at TEXT NOT NULL,
                tool_version TEXT NOT NULL,
                payload TEXT NOT NULL,
                prev_hash TEXT NOT NULL,
                entry_hash TEXT NOT NULL UNIQUE
            )""",
            """CREATE TABLE archive_files (
                sha256 TEXT PRIMARY KEY,
                relpath TEXT NOT NULL,
                size_bytes BIGINT NOT NULL,
                source TEXT NOT NULL,
                ledger_seq INTEGER NOT NULL REFERENCES ledger(seq)
            )""",
            """CREATE TABLE documents (
                document_id TEXT PRIMARY KEY,
                sha256 TEXT NOT NULL UNIQUE,
                source_file TEXT NOT NULL,
                url TEXT,
                title TEXT,
                outlet TEXT,
                published TEXT,
                language TEXT,
                ingested_at TEXT NOT NULL,
                duplicate_of TEXT,
                shared REAL,
                story_id TEXT,
                ledger_seq INTEGER NOT NULL REFERENCES ledger(seq),
                archive_sha256 TEXT NOT NULL REFERENCES archive_files(sha256),
                archive_start BIGINT,
                archive_end BIGINT,
                media_type TEXT NOT NULL,
                text TEXT NOT NULL,
                offset_map TEXT NOT NULL,
                extracted_version TEXT
            )""",
            "CREATE INDEX documents_story ON documents(story_id)",
            """CREATE TABLE rejections (
                rejection_id TEXT PRIMARY KEY,
                source_file TEXT NOT NULL,
                reason TEXT NOT NULL,
                run_id TEXT NOT NULL,
                created_at TEXT NOT NULL
            )""",
            """CREATE TABLE extractions (
                document_id TEXT NOT NULL REFERENCES documents(document_id),
                version TEXT NOT NULL,
                payload TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (document_id, version)
            )""",
        ],
    ),
    (
        "0002_links",
        [
            """CREATE TABLE signatures (
                document_id TEXT PRIMARY KEY REFERENCES documents(document_id),
                signature TEXT NOT NULL
            )""",
            """CREATE TABLE quotes (
                quote_id TEXT PRIMARY KEY,
                document_id TEXT NOT NULL,
                start_char INTEGER NOT NULL,
                end_char INTEGER NOT NULL,
                record TEXT NOT NULL
            )""",
            "CREATE INDEX quotes_document ON quotes(document_id)",
            """CREATE TABLE entities (
                entity_id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                record TEXT NOT NULL
            )""",
            """CREATE TABLE incidents (
                incident_id TEXT PRIMARY KEY,
                type TEXT NOT NULL,
                status TEXT NOT NULL,
                score REAL NOT NULL,
                documents INTEGER NOT NULL,
                independent_sources INTEGER NOT NULL,
                has_contradiction INTEGER NOT NULL,
                date_start TEXT,
                place TEXT,
                record TEXT NOT NULL
            )""",
            "CREATE INDEX incidents_rank ON incidents(score, independent_sources)",
            """CREATE TABLE reviews (
                review_id TEXT PRIMARY KEY,
                action TEXT NOT NULL,
                target TEXT NOT NULL,
                payload TEXT NOT NULL,
                reviewer TEXT NOT NULL,
                reason TEXT NOT NULL,
                created_at TEXT NOT NULL,
                ledger_seq INTEGER NOT NULL REFERENCES ledger(seq)
            )""",
        ],
    ),
    (
        "0003_link_state",
        [
            # What incremental linking needs to place one new document without rereading
            # the archive: plain TEXT/INTEGER/REAL rows (JSON as TEXT), no pickles.
            "CREATE TABLE link_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """CREATE TABLE copy_keys (
                key TEXT NOT NULL,
                document_id TEXT NOT NULL,
                seq INTEGER NOT NULL
            )""",
            "CREATE INDEX copy_keys_key ON copy_keys(key)",
            """CREATE TABLE story_vectors (
                document_id TEXT PRIMARY KEY,
                story_id TEXT NOT NULL,
                day INTEGER,
                payload TEXT NOT NULL
            )""",
            "CREATE INDEX story_vectors_story ON story_vectors(story_id)",
            "CREATE TABLE story_blocks (key TEXT NOT NULL, document_id TEXT NOT NULL)",
            "CREATE INDEX story_blocks_key ON story_blocks(key)",
            "CREATE TABLE term_df (slot INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
            """CREATE TABLE entity_mentions (
                document_id TEXT NOT NULL,
                idx INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                entity_id TEXT NOT NULL,
                payload TEXT NOT NULL,
                PRIMARY KEY (document_id, idx)
            )""",
            "CREATE INDEX entity_mentions_entity ON entity_mentions(entity_id)",
            "CREATE TABLE entity_keys (key TEXT NOT NULL, entity_id TEXT NOT NULL)",
            "CREATE INDEX entity_keys_key ON entity_keys(key)",
            "CREATE INDEX entity_keys_entity ON entity_keys(entity_id)",
            # quotes and incidents naming an entity, to follow it when it is renamed
            """CREATE TABLE entity_refs (
                entity_id TEXT NOT NULL,
                ref_kind TEXT NOT NULL,
                ref_id TEXT NOT NULL
            )""",
            "CREATE INDEX entity_refs_entity ON entity_refs(entity_id)",
            "CREATE INDEX entity_refs_ref ON entity_refs(ref_id)",
            """CREATE TABLE incident_items (
                item_key TEXT PRIMARY KEY,
                document_id TEXT NOT NULL,
                incident_id TEXT NOT NULL,
                type TEXT NOT NULL,
                country TEXT NOT NULL,
                day_lo TEXT,
                day_hi TEXT,
                payload TEXT NOT NULL
            )""",
            "CREATE INDEX incident_items_block ON incident_items(type, country)",
            "CREATE INDEX incident_items_incident ON incident_items(incident_id)",
        ],
    ),
    (
        "0004_fetch_feeds",
        [
            # What `fetch --feed` needs to ask only for what is new: the feed's HTTP
            # validators, and every entry already captured (by entry id, else link).
            """CREATE TABLE feed_state (
                feed_url TEXT PRIMARY KEY,
                etag TEXT,
                last_modified TEXT,
                last_fetched TEXT NOT NULL
            )""",
            """CREATE TABLE feed_entries (
                feed_url TEXT NOT NULL,
                entry_key TEXT NOT NULL,
                link TEXT NOT NULL,
                seen_at TEXT NOT NULL,
                PRIMARY KEY (feed_url, entry_key)
            )""",
        ],
    ),
    (
        "0005_seal_seals",
        [
            # Signed statements about the ledger head, kept beside the chain rather than in
            # it (see evidence/seals.py). No foreign key to ledger: a seal must outlive a
            # ledger row that was deleted, to report it.
            """CREATE TABLE seals (
                seal_no INTEGER PRIMARY KEY,
                ledger_seq INTEGER NOT NULL,
                entry_hash TEXT NOT NULL,
                sealed_at TEXT NOT NULL,
                key_fingerprint TEXT NOT NULL,
                public_key TEXT NOT NULL,
                signature TEXT NOT NULL
            )""",
        ],
    ),
    (
        "0006_telegram_media",
        [
            # Reader facts beside a document (Telegram message fields and text entities,
            # PDF page starts); offsets refer to the document's working text.
            """CREATE TABLE document_facts (
                document_id TEXT PRIMARY KEY REFERENCES documents(document_id),
                reader TEXT NOT NULL,
                payload TEXT NOT NULL
            )""",
            # A forward and the message it repeats count as one source.
            """CREATE TABLE document_origins (
                document_id TEXT PRIMARY KEY REFERENCES documents(document_id),
                origin TEXT NOT NULL,
                origin_id TEXT,
                original_sha256 TEXT
            )""",
            "CREATE INDEX document_origins_original ON document_origins(original_sha256)",
            # Media files a document carries, archived byte for byte (or why they are absent).
            """CREATE TABLE document_media (
                document_id TEXT NOT NULL REFERENCES documents(document_id),
                idx INTEGER NOT NULL,
                kind TEXT NOT NULL,
                name TEXT NOT NULL,
                role TEXT NOT NULL,
                media_type TEXT NOT NULL,
                sha256 TEXT REFERENCES archive_files(sha256),
                size_bytes BIGINT,
                phash TEXT,
                media_origin TEXT,
                missing TEXT,
                PRIMARY KEY (document_id, idx)
            )""",
            "CREATE INDEX document_media_sha ON document_media(sha256)",
            # pHash bands: two hashes within MAX_DISTANCE bits share at least one band.
            """CREATE TABLE media_keys (
                key TEXT NOT NULL,
                phash TEXT NOT NULL,
                media_origin TEXT NOT NULL,
                seq INTEGER NOT NULL
            )""",
            "CREATE INDEX media_keys_key ON media_keys(key)",
        ],
    ),
    (
        "0007_suggest_link_suggestions",
        [
            # "Possible same incident / story" pairs a relink scored just below its bar, one
            # row per item pair (`item_a`/`item_b`: incident item keys, or the documents
            # for stories); `a`/`b` are the current incident (or document) ids they belong to.
            """CREATE TABLE link_suggestions (
                kind TEXT NOT NULL,
                item_a TEXT NOT NULL,
                item_b TEXT NOT NULL,
                a TEXT NOT NULL,
                b TEXT NOT NULL,
                score REAL NOT NULL,
                reason TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (kind, item_a, item_b)
            )""",
            "CREATE INDEX link_suggestions_a ON link_suggestions(a)",
            "CREATE INDEX link_suggestions_b ON link_suggestions(b)",
        ],
    ),
]
