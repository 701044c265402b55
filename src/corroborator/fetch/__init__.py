"""Capture web pages and feeds into a WARC, then archive and ingest it like any original."""
