"""The gazetteer's place tagger: a spaCy component in front of `ner` (see `gazetteer`).

Kept apart from the gazetteer builder so that tuning the tagging guards does not
invalidate the cached index (its key hashes the builder's code).
"""

from __future__ import annotations

from functools import lru_cache

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from corroborator.nlp import lexicon
from corroborator.nlp.columns import column
from corroborator.nlp.gazetteer import BIG_POPULATION, MAX_TOKENS, Gazetteer, load

COMPONENT = "corroborator_gazetteer"
_NAME_PARTICLES = {"al", "el", "ad", "ar", "as", "ash", "at", "az", "an", "bin", "ibn", "abu"}

_PROPER_TAGS = {"NNP", "NNPS"}


DATELINE_STOPS = frozenset((",", "(", "—", "–", "-"))  # what follows a dateline's town


def _dateline_at(doc: Doc, start: int, end: int) -> bool:
    """An all-caps name opening a paragraph and followed by a comma, bracket or dash (a
    dateline), or by a full stop (a roundup's item: "DOBROPILLIA. By Monday six people had
    died")."""
    opens = start == 0 or "\n" in doc[start - 1].text or "\n" in doc[start - 1].whitespace_
    return opens and end < len(doc) and (doc[end].text in DATELINE_STOPS or doc[end].text == ".")


def _matches(gaz: Gazetteer, doc: Doc) -> list[tuple[int, int, tuple[int, ...]]]:
    """Longest non-overlapping gazetteer matches, left to right (all-caps datelines too)."""
    firsts = gaz.first_words
    out: list[tuple[int, int, tuple[int, ...]]] = []
    i, n = 0, len(doc)
    texts = column(doc, "text")  # a Token per window lookup was the hot cost
    # capitals[k]: tokens from k on that pass the dateline test (no lower-case letter word,
    # no word of two letters), so a window's test is one comparison
    capitals = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        w = texts[k]
        if not w.isalpha() or (w.isupper() and len(w) > 2):
            capitals[k] = capitals[k + 1] + 1
    while i < n:
        found: tuple[int, int, tuple[int, ...]] | None = None
        plain = texts[i] in firsts
        if plain or (capitals[i] and texts[i].title() in firsts):
            for j in range(min(n, i + MAX_TOKENS), i, -1):
                words = tuple(texts[i:j])
                ids = gaz.by_tokens.get(words) if plain else None
                if ids is None and capitals[i] >= j - i:
                    line = _dateline_at(doc, i, j)  # "SELYDOVE, Ukraine (AP) —": any town
                    big = tuple(
                        g
                        for g in gaz.by_tokens.get(tuple(w.title() for w in words), ())
                        if line
                        or gaz.places[g].kind != "city"
                        or gaz.places[g].population >= BIG_POPULATION
                    )
                    ids = big or None
                if ids:
                    found = (i, j, ids)
                    break
        if found:
            out.append(found)
            i = found[1]
        else:
            i += 1
    return out


def _inside_longer_name(doc: Doc, start: int, end: int) -> bool:
    """A capitalised proper noun right before or after: part of a person/organisation name."""

    def proper(i: int) -> bool:
        if i < 0 or i >= len(doc):
            return False
        t = doc[i]
        return t.tag_ in _PROPER_TAGS and t.text[:1].isupper()

    before = start - 1  # "Mahmoud al-Hassan": a surname after a particle is no town
    if (
        before >= 1
        and doc[before].text == "-"
        and not doc[before - 1].whitespace_
        and doc[before - 1].lower_ in _NAME_PARTICLES
    ):
        before -= 2
    return proper(before) or (proper(end) and not doc[end].is_sent_start)


def _hyphen_part(doc: Doc, start: int, end: int) -> bool:
    """'Posad-Pokrovske', 'Sursko-Lytovske': a capitalised word hyphened to the match
    makes one longer name the gazetteer lacks, another place than the part (a name the
    gazetteer holds whole, 'Ivano-Frankivsk', matches whole; 'al-Hassan' is a surname)."""

    def word(i: int) -> bool:
        t = doc[i]
        return t.is_alpha and t.text[:1].isupper() and t.lower_ not in _NAME_PARTICLES

    before = (
        start >= 2
        and doc[start - 1].text == "-"
        and not doc[start - 2].whitespace_
        and not doc[start - 1].whitespace_
        and word(start - 2)
    )
    after = (
        end + 1 < len(doc)
        and doc[end].text == "-"
        and not doc[end - 1].whitespace_
        and not doc[end].whitespace_
        and word(end + 1)
    )
    return before or after


_At = dict[int, tuple[int, ...]]  # gazetteer ids of the names matched at each token
_TO_A_PLACE = {"in", "at", "to", "from", "near", "of", "into", "towards", "toward", "via"}
_TO_A_PLACE |= {"left", "fled", "leaving", "fleeing"}


def _titled(
    gaz: Gazetteer, doc: Doc, start: int, end: int, ids: tuple[int, ...], places_at: _At
) -> bool:
    """'the Republic of Tatarstan', 'Freedom for Captives Initiative': a word a town is also
    called, opening a title ('of' or 'for' and a capitalised word that is no place in that
    town's country), where no word leads to it as a place ('taken to Baghdad for DNA
    analysis', 'left El Geneina for Chad', 'the village Lukashivka of Chernihivskyi
    district', 'Balakliia of Kharkiv region' stay places)."""
    if not (
        end + 1 < len(doc)
        and doc[end].lower_ in ("of", "for")
        and doc[end + 1].text[:1].isupper()
        and doc[end + 1].is_alpha
    ):
        return False
    if start > 0 and doc[start - 1].lower_ in _leads_to_a_place():
        return False
    countries = {gaz.places[g].country for g in ids}
    return not any(gaz.places[g].country in countries for g in places_at.get(end + 1, ()))


@lru_cache(maxsize=1)
def _leads_to_a_place() -> frozenset[str]:
    """Prepositions and settlement words ('the village Lukashivka of Chernihiv district')."""
    return frozenset(_TO_A_PLACE | lexicon.words("places_settlements.txt"))


_AREA_WORDS = {"state", "region", "province", "oblast", "governorate", "district", "territory"}
_AREA_WORDS |= {"county", "prefecture", "department", "raion"}


def _area_word_at(doc: Doc, i: int) -> bool:
    return i < len(doc) and doc[i].lower_ in _AREA_WORDS and doc[i].text[:1].isupper()


def tag_places(gaz: Gazetteer, doc: Doc) -> list[Span]:
    """GPE spans for the document, with the guards described in the module docstring."""
    raw = _matches(gaz, doc)
    places_at = {start: ids for start, _, ids in raw}
    countries: set[str] = set()
    accepted: list[tuple[int, int, tuple[int, ...]]] = []
    pending: list[tuple[int, int, tuple[int, ...]]] = []
    bad_names: set[str] = set()
    for start, end, ids in raw:
        places = [gaz.places[g] for g in ids]
        one = end - start == 1
        if one and doc[start].tag_ not in _PROPER_TAGS and not doc[start].text.isupper():
            area = any(p.kind in {"admin1", "admin2"} for p in places)
            if not (area and end < len(doc) and doc[end].lower_ in _AREA_WORDS):
                continue  # "Sagaing region" mis-tagged as a verb is still the region
        country = any(p.kind == "country" for p in places)
        if not country and _hyphen_part(doc, start, end):
            continue
        if _area_word_at(doc, end) and any(p.kind in {"admin1", "admin2"} for p in places):
            end += 1  # "Rakhine State", "Masisi Territory": the area, not a longer name
        if not country and (
            _inside_longer_name(doc, start, end) or _titled(gaz, doc, start, end, ids, places_at)
        ):
            big = any(p.kind != "city" or p.population >= BIG_POPULATION for p in places)
            if not big:  # "the Kyiv Independent" leaves Kyiv a city; "Richard Weir" no town
                bad_names.add(doc[start:end].text)
            continue
        if any(p.major for p in places):
            accepted.append((start, end, ids))
            best = max(places, key=lambda p: (p.kind == "country", p.population))
            countries.add(best.country)
        else:
            pending.append((start, end, ids))
    for start, end, ids in pending:
        if any(gaz.places[g].country in countries for g in ids):
            accepted.append((start, end, ids))
    # a small place's name seen inside a longer name elsewhere is a person/org there too
    spans = [
        Span(doc, s, e, label="GPE")
        for s, e, ids in sorted(accepted)
        if doc[s:e].text not in bad_names or any(gaz.places[g].kind == "country" for g in ids)
    ]
    # An area word taken into a name can be a match of its own ("DONETSK REGION" and an
    # all-capitals "REGION"): entities may not overlap, so the longest span stays.
    return filter_spans(spans)


@Language.factory(COMPONENT)
def _make_component(nlp: Language, name: str) -> GazetteerTagger:
    return GazetteerTagger(load(nlp))


class GazetteerTagger:
    """spaCy component: sets gazetteer GPE spans as entities (before `ner`)."""

    def __init__(self, gaz: Gazetteer) -> None:
        self.gaz = gaz

    def __call__(self, doc: Doc) -> Doc:
        spans = tag_places(self.gaz, doc)
        if spans:
            doc.set_ents(spans, default="unmodified")
        return doc


def add_ruler(nlp: Language) -> None:
    """Insert the gazetteer tagger before `ner` (builds or loads the cached patterns)."""
    if COMPONENT in nlp.pipe_names:
        return
    load(nlp)  # build with the model's word lists before the factory asks for it
    nlp.add_pipe(COMPONENT, before="ner" if "ner" in nlp.pipe_names else None)
