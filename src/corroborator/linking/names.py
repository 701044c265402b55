"""Cross-document entity resolution: one entity per real person, group or place.

Reports spell the same name many ways (Yevgeny/Evgeniy/Evgeny Prigozhin, Kharkov/Kharkiv,
Cyrillic originals, misspellings). Names are reduced to a transliteration-neutral key,
blocked on phonetic keys of the surname (or core name) so that only look-alikes are
compared, then scored with Jaro-Winkler. Two people who share a surname but not a first
name stay apart; a bare surname joins a full name only when that choice is unique.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import cyrtranslit
import jellyfish
from rapidfuzz.distance import OSA, JaroWinkler
from unidecode import unidecode

from corroborator.nlp import lexicon

SURNAME_SIM = 0.88
EDIT_SIM = 0.8  # also required: Jaro-Winkler alone over-rewards shared prefixes (Tkachenko/Tkachuk)
GIVEN_SIM = 0.85
CORE_SIM = 0.93
PLACE_SIM = 0.90
MAX_BLOCK = 500  # forms per phonetic block; beyond that a key is too common to be useful

_FAMILY = {
    "person": "person",
    "armed_group": "org",
    "organization": "org",
    "outlet": "org",
    "place": "place",
}
_CYRILLIC = re.compile(r"[\u0400-\u04FF]")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$", re.I)
_PATRONYMIC = re.compile(r"(?:ovich|evich|ovna|evna|ichna)$")
# Transliteration variants of Slavic names, applied in order to build the comparison key.
_TRANSLIT_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^ye"), "e"),
    (re.compile(r"^yu"), "iu"),
    (re.compile(r"kh"), "h"),
    (re.compile(r"(?<![zcsg])h"), "g"),  # Ukrainian h = Russian g (Luhansk/Lugansk)
    (re.compile(r"ks"), "x"),
    (re.compile(r"zh"), "j"),  # French/English: Prigojine/Prigozhin
    (re.compile(r"ph"), "f"),
    (re.compile(r"w"), "v"),
    (re.compile(r"j"), "y"),
    (re.compile(r"(?:iy|ii|yi|yy|ij|ei)$"), "y"),
    (re.compile(r"ie$"), "y"),
    (re.compile(r"y"), "i"),  # Boyko/Boiko, Nataliya/Natalia
    (re.compile(r"(.)\1"), r"\1"),
]


@dataclass
class Cluster:
    """One real-world entity: canonical name, kind, every surface form, mention indices."""

    name: str
    kind: str
    aliases: list[str]
    members: list[int]


def _lexicon(name: str) -> frozenset[str]:
    return lexicon.words(name, lower=True)


def clean_surface(surface: str) -> str:
    """Surface form without possessive, leading article, edge punctuation or extra spaces."""
    s = " ".join(surface.replace("\u00a0", " ").split()).strip(" .,;:!?\"'“”‘’()[]")
    s = re.sub(r"^(?:the|The|THE)\s+", "", s)
    return _POSSESSIVE.sub("", s).strip(" -")


def latin(text: str) -> str:
    """ASCII form; Cyrillic goes through the Russian transliteration table first."""
    if _CYRILLIC.search(text):
        text = cyrtranslit.to_latin(text, "ru")
    return unidecode(text)


@lru_cache(maxsize=1 << 16)
def word_key(word: str) -> str:
    """Transliteration-neutral key of one word (Yevgeny, Evgeniy and Evgenij agree).
    Remembered: a full relink of 240 reports asks ~26k times about ~1.8k words."""
    w = re.sub(r"[^a-z]", "", latin(word).lower())
    for pat, rep in _TRANSLIT_RULES:
        w = pat.sub(rep, w)
    return w


def name_key(surface: str) -> str:
    """Transliteration-neutral key of a whole name ("Nataliya Boyko" == "Natalia Boiko")."""
    return " ".join(_tokens(clean_surface(surface)))


def _tokens(surface: str) -> list[str]:
    return [k for k in (word_key(w) for w in re.split(r"[\s\-–]+", latin(surface))) if k]


def _phonetic(word: str) -> list[str]:
    if not word:
        return []
    keys = [
        "n:" + jellyfish.nysiis(word),
        "m:" + jellyfish.metaphone(word),
        "s:" + word[:3] + str(len(word) // 3),
    ]
    if len(word) >= 6:  # a letter lost in transliteration or typing (Уларов/Uldarov)
        keys.append("e:" + word[:2] + word[-3:])
    return keys


def _sim(a: str, b: str) -> float:
    return float(JaroWinkler.similarity(a, b))


def _same_word(a: str, b: str, threshold: float) -> bool:
    """Spelling variants of one word: close by Jaro-Winkler and by edit distance."""
    return a == b or (_sim(a, b) >= threshold and OSA.normalized_similarity(a, b) >= EDIT_SIM)


@dataclass
class _Form:
    """All mentions sharing one normalised key within a kind family."""

    tokens: tuple[str, ...]
    members: list[int] = field(default_factory=list)
    surfaces: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _person_parts(tokens: tuple[str, ...]) -> tuple[str, str]:
    """(given, surname); handles the Russian order 'Surname Given Patronymic'."""
    if len(tokens) == 1:
        return "", tokens[0]
    if len(tokens) == 3 and _PATRONYMIC.search(tokens[2]):
        return tokens[1], tokens[0]
    return tokens[0], tokens[-1]


def _given_compatible(a: str, b: str) -> bool:
    if not a or not b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return _sim(a, b) >= GIVEN_SIM


def _strip(tokens: list[str], lexicon: frozenset[str], leading_only: bool) -> list[str]:
    if leading_only:
        i = 0
        while i < len(tokens) - 1 and tokens[i] in lexicon:
            i += 1
        return tokens[i:]
    kept = [t for t in tokens if t not in lexicon]
    return kept or tokens


def _form_key(surface: str, family: str) -> tuple[str, ...]:
    toks = _tokens(surface)
    if family == "person":
        toks = _strip(toks, _lexicon("linking_person_titles.txt"), leading_only=True)
    elif family == "org":
        toks = _strip(toks, _lexicon("linking_org_designators.txt"), leading_only=False)
    else:
        toks = _strip(toks, _lexicon("linking_place_designators.txt"), leading_only=False)
    return tuple(t for t in toks if t not in {"of", "the", "and"}) or tuple(toks)


def _blocks(forms: list[_Form]) -> dict[str, list[int]]:
    """Phonetic blocks over each word of a form's core name (so "Security Service" meets
    "Ukrainian Security Service")."""
    out: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(forms):
        for key in {k for word in f.tokens[:4] for k in _phonetic(word)}:
            out[key].append(i)
    return {k: v for k, v in out.items() if 1 < len(v) <= MAX_BLOCK}


def _candidate_pairs(blocks: dict[str, list[int]]) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    for ids in blocks.values():
        for x in range(len(ids)):
            for y in range(x + 1, len(ids)):
                pairs.add((ids[x], ids[y]))
    return pairs


def _resolve_people(forms: list[_Form], docs: list[str], uf: _UnionFind) -> dict[int, int]:
    """Union full names; attach bare surnames. Returns per-mention overrides (mention index ->
    form index) for bare surnames whose entity differs by document."""
    parts = [_person_parts(f.tokens) for f in forms]
    blocks: dict[str, list[int]] = defaultdict(list)
    for i, (_, sur) in enumerate(parts):
        for key in _phonetic(sur):
            blocks[key].append(i)
    small = {k: v for k, v in blocks.items() if 1 < len(v) <= MAX_BLOCK}
    pairs = _candidate_pairs(small)
    full = [i for i, (g, _) in enumerate(parts) if g]
    full_set = set(full)
    for a, b in sorted(pairs):
        if a in full_set and b in full_set:
            (ga, sa), (gb, sb) = parts[a], parts[b]
            if _same_word(sa, sb, SURNAME_SIM) and _given_compatible(ga, gb):
                uf.union(a, b)
    neighbours: dict[int, set[int]] = defaultdict(set)
    for a, b in pairs:
        neighbours[a].add(b)
        neighbours[b].add(a)
    root_docs: dict[int, set[str]] = defaultdict(set)
    for j in full:
        root_docs[uf.find(j)].update(docs[m] for m in forms[j].members)
    unique: list[tuple[int, int]] = []
    overrides: dict[int, int] = {}
    bare = [i for i, (g, _) in enumerate(parts) if not g]
    for i in bare:
        sur = parts[i][1]
        roots = {
            uf.find(j) for j in neighbours[i] if j in full_set and _spelt_alike(parts[j][1], sur)
        }
        if len(roots) == 1:
            unique.append((i, roots.pop()))
        elif roots:  # several people share the surname: decide per mention, by document
            for m in forms[i].members:
                local = [r for r in roots if docs[m] in root_docs[r]]
                if len(local) == 1:
                    overrides[m] = local[0]
    for i, r in unique:
        uf.union(i, r)
    attached = {i for i, _ in unique}
    for a, b in sorted(pairs):
        if a in attached or b in attached or a in full_set or b in full_set:
            continue
        if _same_word(parts[a][1], parts[b][1], 0.92):
            uf.union(a, b)
    return overrides


def _spelt_alike(surname: str, bare: str) -> bool:
    """A bare name is a full name's surname spelt another way, unless it is a shorter name
    the surname grows from: a given name that many surnames are made of ('Roman', a son in
    one report, is not 'Francesca Romano' of another, nor 'Ivan' an Ivanov)."""
    if bare != surname and surname.startswith(bare):
        return False
    return _same_word(surname, bare, SURNAME_SIM)


def _bag(tokens: tuple[str, ...]) -> frozenset[str]:
    return frozenset(t[:5] for t in tokens)


def _resolve_named(forms: list[_Form], uf: _UnionFind, threshold: float, subset: bool) -> None:
    """Organisations and places: fuzzy equal cores merge; a shorter core joins a unique superset."""
    pairs = _candidate_pairs(_blocks(forms))
    joined = [" ".join(f.tokens) for f in forms]
    supersets: dict[int, set[int]] = defaultdict(set)
    for a, b in sorted(pairs):
        ta, tb = forms[a].tokens, forms[b].tokens
        same_len_match = len(ta) == len(tb) and _same_word(joined[a], joined[b], threshold)
        # word order / demonym: "Security Service of Ukraine" == "Ukrainian Security Service"
        if same_len_match or (subset and _bag(ta) == _bag(tb)):
            uf.union(a, b)
        elif subset and len(ta) != len(tb):
            short, long_ = (a, b) if len(ta) < len(tb) else (b, a)
            lt = forms[long_].tokens
            if all(any(_same_word(t, u, threshold) for u in lt) for t in forms[short].tokens):
                supersets[short].add(long_)
    for short, longs in supersets.items():
        roots = {uf.find(x) for x in longs}
        if len(roots) == 1:
            uf.union(short, roots.pop())


def blocking_keys(surface: str, kind: str) -> set[str]:
    """Every key under which `resolve` may compare this mention with another (phonetic keys of
    its core words, or its raw surface when it has none): incremental linking re-resolves
    only the entities sharing one, since mentions sharing none can never be joined."""
    family = _FAMILY.get(kind, kind)
    clean = clean_surface(surface)
    key = _form_key(clean, family) if clean else ()
    if not key:
        return {"x:" + surface}
    words = {*key[:4], _person_parts(key)[1]}
    return {k for w in words for k in _phonetic(w)}


def resolve(mentions: list[tuple[str, str, str]]) -> list[Cluster]:
    """Group (document_id, surface, kind) mentions into entities; clusters ordered by first mention."""
    docs = [d for d, _, _ in mentions]
    by_family: dict[str, dict[tuple[str, ...], _Form]] = defaultdict(dict)
    for idx, (_, surface, kind) in enumerate(mentions):
        family = _FAMILY.get(kind, kind)
        clean = clean_surface(surface)
        key = _form_key(clean, family) if clean else ()
        if not key:
            key = ("\0" + surface,)
        form = by_family[family].setdefault(key, _Form(tokens=key))
        form.members.append(idx)
        form.surfaces[clean or surface] += 1
        form.kinds[kind] += 1
    clusters: list[Cluster] = []
    for family, table in by_family.items():
        forms = list(table.values())
        uf = _UnionFind(len(forms))
        overrides: dict[int, int] = {}
        if family == "person":
            overrides = _resolve_people(forms, docs, uf)
        elif family == "place":
            _resolve_named(forms, uf, PLACE_SIM, subset=False)
        else:
            _resolve_named(forms, uf, CORE_SIM, subset=True)
        groups: dict[int, list[tuple[_Form, list[int]]]] = defaultdict(list)
        for i, f in enumerate(forms):
            moved: dict[int, list[int]] = defaultdict(list)
            for m in f.members:
                moved[uf.find(overrides.get(m, i))].append(m)
            for root, members in moved.items():
                groups[root].append((f, members))
        for group in groups.values():
            clusters.append(_make_cluster(group, family, mentions))
    clusters = _absorb_mislabelled(clusters, mentions)
    clusters.sort(key=lambda c: c.members[0])
    return clusters


def _absorb_mislabelled(
    clusters: list[Cluster], mentions: list[tuple[str, str, str]]
) -> list[Cluster]:
    """NER sometimes labels a full personal name ORG in one document: a non-person cluster
    whose every alias is a multi-word name of exactly one person cluster joins that person."""
    people: dict[str, set[int]] = defaultdict(set)
    for i, c in enumerate(clusters):
        if c.kind == "person":
            for a in c.aliases:
                key = name_key(a)
                if " " in key:
                    people[key].add(i)
    absorbed: dict[int, int] = {}
    for i, c in enumerate(clusters):
        if c.kind == "person":
            continue
        targets = [people.get(name_key(a), set()) for a in c.aliases]
        if all(len(t) == 1 for t in targets) and len(set().union(*targets)) == 1:
            absorbed[i] = next(iter(targets[0]))
    if not absorbed:
        return clusters
    out: list[Cluster] = []
    for i, c in enumerate(clusters):
        if i in absorbed:
            continue
        extra = [clusters[j] for j, t in absorbed.items() if t == i]
        if extra:
            c.members = sorted(c.members + [m for e in extra for m in e.members])
            c.aliases += [a for e in extra for a in e.aliases if a not in c.aliases]
        out.append(c)
    return out


def _make_cluster(
    group: list[tuple[_Form, list[int]]], family: str, mentions: list[tuple[str, str, str]]
) -> Cluster:
    members = sorted(m for _, ms in group for m in ms)
    kinds: Counter[str] = Counter(mentions[m][2] for m in members)
    surfaces: Counter[str] = Counter()
    multi: Counter[str] = Counter()
    first: dict[str, int] = {}
    for f, ms in group:
        for m in ms:
            s = clean_surface(mentions[m][1]) or mentions[m][1]
            surfaces[s] += 1
            first.setdefault(s, m)
            if family != "place" and len(f.tokens) > 1:
                multi[s] += 1
    pool = multi or surfaces
    name = min(pool, key=lambda s: (-pool[s], -len(s.split()), len(s), s))
    return Cluster(
        name=name,
        kind=kinds.most_common(1)[0][0],
        aliases=sorted(first, key=first.__getitem__),
        members=members,
    )


def entity_keys(clusters: Iterable[Cluster], n_mentions: int) -> list[str]:
    """Canonical name of the cluster of each mention index (helper for stories)."""
    out = [""] * n_mentions
    for c in clusters:
        for m in c.members:
            out[m] = c.name
    return out
