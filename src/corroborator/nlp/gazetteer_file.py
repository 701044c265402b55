"""The gazetteer's index as one file that every process maps instead of unpickling.

Unpickling the index made 1.5 million Python objects, a second of serial start-up in
every ingest, CLI command and web server, before any worker could fork. Mapped, it opens
in milliseconds, its pages shared by the workers, and a lookup reads a few slots of an
open-addressing hash table and compares the key's bytes (so no hash collision can give a
wrong place). Rows keep the index's order; names keep the order of the build, which the
near-spelling search's ties follow.

Layout: a magic line, the length of a JSON header, the header (each section's offset,
byte length and item format), then the sections, each 8-byte aligned. Ids, offsets and
entry numbers are 32-bit (GeoNames ids reach about 13 million).
"""

from __future__ import annotations

import json
import mmap
import struct
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from corroborator.nlp.gazetteer_build import FIELDS, KINDS, Index, Place

FORMAT = "2"
MAGIC = f"corroborator-gazetteer {FORMAT}\n".encode()
_SEP = "\x1f"  # joins a tagging key's tokens (no token holds it)
_NONE = "\x00"  # a row's missing admin1 name


def key_hash(data: bytes) -> int:
    """A stable 64-bit hash (Python's own `hash` changes with every process). Its high half,
    the CRC, spreads keys over a table's slots; the low half, Adler's sum, barely does."""
    return (zlib.crc32(data) << 32) | zlib.adler32(data)


class _Sections:
    """Builds the file: named arrays and byte blobs, then the header that finds them."""

    def __init__(self) -> None:
        self.parts: list[tuple[str, str, bytes]] = []

    def add(self, name: str, fmt: str, values: Iterable[Any]) -> None:
        self.parts.append((name, fmt, array(fmt, values).tobytes()))

    def blob(self, name: str, data: bytes) -> None:
        self.parts.append((name, "B", data))

    def write(self, path: Path, extra: dict[str, Any]) -> None:
        layout: dict[str, list[Any]] = {}
        offset = 0
        for name, fmt, data in self.parts:
            layout[name] = [offset, len(data), fmt]
            offset += -(-len(data) // 8) * 8
        header = json.dumps({"sections": layout, **extra}).encode()
        start = -(-(len(MAGIC) + 8 + len(header)) // 8) * 8
        with open(path, "wb") as fh:
            fh.write(MAGIC + struct.pack("<Q", len(header)) + header)
            fh.write(b"\0" * (start - fh.tell()))
            for _, _, data in self.parts:
                fh.write(data + b"\0" * (-len(data) % 8))


def _strings(sections: _Sections, name: str, values: Iterable[str]) -> None:
    """A column of strings: one UTF-8 blob and the offsets of its items."""
    blob = bytearray()
    offsets = [0]
    for v in values:
        blob += v.encode("utf-8")
        offsets.append(len(blob))
    sections.blob(name, bytes(blob))
    sections.add(name + ".at", "I", offsets)


def _table(sections: _Sections, name: str, items: list[tuple[bytes, tuple[int, ...]]]) -> None:
    """Keys (in build order) and their ids, with a hash table over the keys."""
    _strings(sections, name + ".keys", (k.decode("utf-8") for k, _ in items))
    ids: list[int] = []
    starts = [0]
    for _, v in items:
        ids.extend(v)
        starts.append(len(ids))
    sections.add(name + ".ids", "I", ids)
    sections.add(name + ".ids.at", "I", starts)
    size = 1 << max(4, (2 * len(items)).bit_length())  # at most half full
    hashes = [0] * size
    entries = [0] * size
    for n, (key, _) in enumerate(items):
        h = key_hash(key) or 1  # 0 marks an empty slot
        slot = (h >> 32) & (size - 1)
        while hashes[slot]:
            slot = (slot + 1) & (size - 1)
        hashes[slot], entries[slot] = h, n
    sections.add(name + ".hash", "Q", hashes)
    sections.add(name + ".entry", "I", entries)


def write(path: Path, index: Index) -> None:
    """The index as a file (see the module's layout)."""
    rows = index.rows
    col = dict(zip(FIELDS, zip(*rows, strict=True), strict=True))
    s = _Sections()
    s.add("gid", "I", col["geonameid"])
    for name in ("name", "country", "admin1_code"):
        _strings(s, name, col[name])
    _strings(s, "admin1", (_NONE if v is None else v for v in col["admin1"]))
    s.add("lat", "d", col["lat"])
    s.add("lon", "d", col["lon"])
    s.add("population", "q", col["population"])
    s.add("kind", "B", (KINDS.index(k) for k in col["kind"]))
    order = sorted(range(len(rows)), key=col["geonameid"].__getitem__)
    s.add("by_gid", "I", order)
    index_keys = list(index.by_norm)
    norms = [(k.encode("utf-8"), v) for k, v in index.by_norm.items()]
    _table(s, "norm", norms)
    _table(s, "tokens", [(_SEP.join(k).encode("utf-8"), v) for k, v in index.by_tokens.items()])
    _table(
        s, "first_words", [(w.encode("utf-8"), ()) for w in sorted({k[0] for k in index.by_tokens})]
    )
    # near-spelling search: each country's names (one blob: no name holds a line break) and
    # the place each names, in the names' build order
    country_of = dict(zip(col["geonameid"], col["country"], strict=True))
    by_country: dict[str, list[tuple[int, int]]] = {}
    for n, (_, ids) in enumerate(norms):
        for gid in ids:
            by_country.setdefault(country_of[gid], []).append((n, gid))
    spans: dict[str, list[int]] = {}
    names = bytearray()
    places: list[int] = []
    for cc, pairs in by_country.items():
        part = "\n".join(index_keys[n] for n, _ in pairs).encode("utf-8")
        spans[cc] = [len(names), len(names) + len(part), len(places), len(places) + len(pairs)]
        names += part
        places.extend(g for _, g in pairs)
    s.blob("near.names", bytes(names))
    s.add("near.places", "I", places)
    s.write(path, {"countries": spans})


class _File:
    """The mapped file's sections, each as a memoryview of its items."""

    def __init__(self, path: Path) -> None:
        with open(path, "rb") as fh:  # an empty file cannot be mapped: ValueError too
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        head = len(MAGIC) + 8
        if self._map[: len(MAGIC)] != MAGIC or len(self._map) < head:
            raise ValueError(f"{path.name}: not a gazetteer index file")
        (length,) = struct.unpack_from("<Q", self._map, len(MAGIC))
        self.header = json.loads(self._map[head : head + length])
        self._start = -(-(head + length) // 8) * 8
        whole = memoryview(self._map)
        self.views: dict[str, memoryview] = {}
        for name, (offset, size, fmt) in self.header["sections"].items():
            at = self._start + offset
            if at + size > len(self._map):
                raise ValueError(f"{path.name}: truncated gazetteer index file")
            self.views[name] = whole[at : at + size].cast(fmt)


class _Strings:
    """A string column read item by item."""

    def __init__(self, f: _File, name: str) -> None:
        self._blob = f.views[name]
        self._at = f.views[name + ".at"]

    def __len__(self) -> int:
        return len(self._at) - 1

    def __getitem__(self, i: int) -> str:
        return str(self._blob[self._at[i] : self._at[i + 1]], "utf-8")

    def raw(self, i: int) -> bytes:
        return self._blob[self._at[i] : self._at[i + 1]].tobytes()


class Table(Mapping[str, tuple[int, ...]]):
    """Place ids by key, a hash table in the mapped file."""

    def __init__(self, f: _File, name: str) -> None:
        self._keys = _Strings(f, name + ".keys")
        self._ids = f.views[name + ".ids"]
        self._ids_at = f.views[name + ".ids.at"]
        self._hash = f.views[name + ".hash"]
        self._entry = f.views[name + ".entry"]
        self._mask = len(self._hash) - 1

    def find(self, key: bytes) -> int | None:
        """The key's entry number, None where the key is not in the table."""
        h = key_hash(key) or 1
        slot = (h >> 32) & self._mask
        while found := self._hash[slot]:
            if found == h:
                n = self._entry[slot]
                if self._keys.raw(n) == key:
                    return n
            slot = (slot + 1) & self._mask
        return None

    def ids(self, n: int) -> tuple[int, ...]:
        return tuple(self._ids[self._ids_at[n] : self._ids_at[n + 1]])

    def __getitem__(self, key: str) -> tuple[int, ...]:
        n = self.find(key.encode("utf-8"))
        if n is None:
            raise KeyError(key)
        return self.ids(n)

    def get(self, key: str, default: Any = None) -> Any:
        n = self.find(key.encode("utf-8"))
        return default if n is None else self.ids(n)

    def __iter__(self) -> Iterator[str]:
        return (self._keys[n] for n in range(len(self)))

    def __len__(self) -> int:
        return len(self._keys)


class TokenTable:
    """Place ids by a name's exact tokens (the tagger's lookups)."""

    def __init__(self, table: Table) -> None:
        self._table = table

    def get(self, words: tuple[str, ...], default: Any = None) -> Any:
        n = self._table.find(_SEP.join(words).encode("utf-8"))
        return default if n is None else self._table.ids(n)

    def __getitem__(self, words: tuple[str, ...]) -> tuple[int, ...]:
        return self._table[_SEP.join(words)]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return (tuple(k.split(_SEP)) for k in self._table)

    def __len__(self) -> int:
        return len(self._table)


WORDS_MEMO = 200_000  # answers kept per process (a long batch meets millions of words)


class Words:
    """Whether a word is in a table, each answer kept: the tagger asks about every token of
    a text, most of them words it asked about before (making a set of the 416,000 words
    took 0.17 s)."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self._known: dict[str, bool] = {}

    def __contains__(self, word: str) -> bool:
        found = self._known.get(word)
        if found is None:
            if len(self._known) >= WORDS_MEMO:
                self._known.clear()
            found = self._known[word] = self._table.find(word.encode("utf-8")) is not None
        return found


class Places(Mapping[int, Place]):
    """Places by id, each made from its row on first use (a run reads a few thousand of
    272,000)."""

    def __init__(self, f: _File) -> None:
        self._gid = f.views["gid"]
        self._by_gid = f.views["by_gid"]
        self._name = _Strings(f, "name")
        self._lat, self._lon = f.views["lat"], f.views["lon"]
        self._country = _Strings(f, "country")
        self._admin1_code = _Strings(f, "admin1_code")
        self._admin1 = _Strings(f, "admin1")
        self._population = f.views["population"]
        self._kind = f.views["kind"]
        self._made: dict[int, Place] = {}

    def _row(self, geonameid: int) -> int:
        k = bisect_left(self._by_gid, geonameid, key=self._gid.__getitem__)
        if k == len(self._by_gid) or self._gid[self._by_gid[k]] != geonameid:
            raise KeyError(geonameid)
        return self._by_gid[k]

    def __getitem__(self, geonameid: int) -> Place:
        place = self._made.get(geonameid)
        if place is None:
            i = self._row(geonameid)
            admin1 = self._admin1[i]
            place = self._made[geonameid] = Place(
                geonameid,
                self._name[i],
                self._lat[i],
                self._lon[i],
                self._country[i],
                self._admin1_code[i],
                None if admin1 == _NONE else admin1,
                self._population[i],
                KINDS[self._kind[i]],
            )
        return place

    def __iter__(self) -> Iterator[int]:
        return iter(self._gid)

    def __len__(self) -> int:
        return len(self._gid)

    def country(self, geonameid: int) -> str:
        return self._country[self._row(geonameid)]

    def of_kind(self, kind: str) -> Iterator[Place]:
        """Places of one kind ("admin1"), in the index's order."""
        code = KINDS.index(kind)
        return (self[self._gid[i]] for i, k in enumerate(self._kind) if k == code)


class MappedIndex:
    """The whole index, mapped: places, lookup names, tagging keys, and each country's
    names for the near-spelling search."""

    def __init__(self, path: Path) -> None:
        f = _File(path)
        self.places = Places(f)
        self.by_norm = Table(f, "norm")
        self.by_tokens = TokenTable(Table(f, "tokens"))
        self.first_words = Words(Table(f, "first_words"))
        self._countries: dict[str, list[int]] = f.header["countries"]
        self._near_names = f.views["near.names"]
        self._near_places = f.views["near.places"]

    def country_names(self, iso2: str) -> tuple[list[str], list[int]]:
        """The country's lookup names and, item by item, the place each names."""
        a, b, c, d = self._countries.get(iso2, (0, 0, 0, 0))
        if a == b:
            return [], []
        return str(self._near_names[a:b], "utf-8").split("\n"), list(self._near_places[c:d])
