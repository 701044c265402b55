"""Places stage: resolve each place mention to one GeoNames entry, reading the document.

Candidates come from the gazetteer by name and alternate name. Ranking prefers, in order of
weight: the precision the text asks for ("Donetsk region" is the oblast, "Izium district"
the raion, a bare "Donetsk" the city; countries are never namesake towns), a country named
in the same sentence, the document's countries (named, implied by nationality words, or
by a name nearly all of whose people live in one country) and regions, population, a
national capital, and nearness to the document's other places (the nearest consistent
reading, not the biggest namesake). A qualifier decides outright: "Paris, Texas",
"Lyman, Donetsk region", "Borova, in the Izium district", "Atlanta, Georgia" (but a comma
list "Kherson, Mykolaiv and Odesa" qualifies nothing); a city's part is in that city ("the
Industrialnyi district of Kharkiv", "Kharkiv's Saltivskyi district": its namesake village
elsewhere is not where it happened). A name with no exact candidate is
matched fuzzily ("Donestk") but only inside the document's countries. Once the document
has a country context, a town in a country it never names (nor borders) must be famous;
a small town only across a border and far from the story's places is left unresolved; a
capital's namesake needs a tie to the story ("Athens" after "New York" is Greece's).
Governments speaking ("Moscow denied"), organisations named after places ("Damascus
University") and "the Red Sea" give no PlaceRef.

Villages the gazetteer lacks still get a PlaceRef (no id) when the text says they are
settlements: "the village of X", "X village", "X, a town near Y", or a place-tagged
X "in/near" a resolved place. Region and country come from that following place, else from
the sentence's one region and the document's main country; lat/lon are that place's (the
town it is near, else its region or country), the precision the text supports. A resolved
town named by one of its alternate names keeps the source's spelling as `name`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache

from spacy.tokens import Doc, Span, Token

from corroborator.geo import distance_km
from corroborator.models import EntityMention, PlaceRef
from corroborator.nlp import gazetteer, lexicon
from corroborator.nlp.columns import column
from corroborator.nlp.gazetteer import Gazetteer, Place, english_words, load, normalize
from corroborator.nlp.lang.places import repeated, uncharted
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.quotes import marks

_REGION_WORDS = {"region", "regions", "oblast", "oblasts", "province", "provinces", "governorate"}
_REGION_WORDS |= {"governorates", "state", "states", "krai", "department", "departments"}
_REGION_WORDS |= {"regional", "provincial"}  # "Kharkiv regional governor"
_DISTRICT_WORDS = {"district", "districts", "raion", "raions", "territory", "county", "counties"}
_DISTRICT_WORDS |= {"municipality", "subdistrict", "township", "prefecture"}
_WATERS = {"sea", "river", "lake", "gulf", "bay", "strait", "ocean"}
_PRECISION = {"city": "settlement", "admin2": "admin2", "admin1": "admin1", "country": "country"}
FAMOUS_POPULATION = 250_000  # a city this big may be named without its country
SMALL_REGION = 50_000  # regions smaller are municipalities some countries list as regions
DOMINANT_SHARE = 0.9  # of a name's population in one country: the name sets that country
TIE_KM = 300.0  # a place this close to another of the story belongs to it
CITY_KM = 25.0  # a district of a city lies this close to its centre
NEAR_KM = 100.0  # "X near Y", and the reach of the document's other places as a prior
# "X, Y" / "X in (the) Y" / "X, in Y": Y is the area X lies in ("Paris, Texas")
_QUALIFIER = re.compile(r"^(?:,\s*(?:in\s+)?|\s+in\s+)(?:the\s+)?$")
# "the Industrialnyi district of Kharkiv", "the Zeitoun neighbourhood of Gaza City"
_PART_OF = re.compile(
    r"^\s+(?:district|neighbou?rhood|quarter|suburb|microdistrict|area)s?\s+of\s+(?:the\s+)?$"
)
# "Kharkiv's Industrialnyi district": the words after the part's name
_PART_AFTER = re.compile(r"^\s+(?:district|neighbou?rhood|quarter|suburb|microdistrict)s?\b")
_OF = re.compile(r"^\s+of\s+(?:the\s+)?$")  # "the Kyivskyi district | of | Odesa"
_POSSESSIVE = re.compile(r"^['\u2019]s\s+(?:the\s+)?$")
_NEAR = re.compile(
    r"^,?\s*(?:near|outside|close to|(?:north|south|east|west)\w* of)\s+(?:the\s+)?$"
)


def _capital(p: Place) -> bool:
    """A national capital: the reading a bare name defaults to ("Athens")."""
    return (
        p.kind == "city"
        and p.name == gazetteer.country_facts().get(p.country, ("", frozenset()))[0]
    )


def _famous(p: Place) -> bool:
    capital = gazetteer.country_facts().get(p.country, ("", frozenset()))[0]
    if p.kind == "admin2":
        return False
    if p.kind == "admin1":  # not a municipality listed as a region ('Grad', Slovenia)
        return not 0 < p.population < SMALL_REGION
    return p.kind != "city" or p.population >= FAMOUS_POPULATION or p.name == capital


@dataclass(frozen=True)
class _Mention:
    start: int
    end: int
    text: str
    wants: str | None  # "admin1" / "admin2" when a region or district noun follows
    after_the: bool = False
    key: str = ""  # the words looked up: "Rakhine" for "Rakhine State"
    sent: int = -1  # start of its sentence: a country named there weighs most

    @property
    def wants_region(self) -> bool:
        return self.wants is not None

    @property
    def lookup(self) -> str:
        return self.key or self.text


def _area_word(word: str) -> str | None:
    low = word.lower()
    return "admin1" if low in _REGION_WORDS else "admin2" if low in _DISTRICT_WORDS else None


_RURAL = frozenset(("village", "hamlet"))


def _city(name: str) -> bool:
    """A town too big for 'X village' to name X itself (GeoNames gives Kherson 66,000)."""
    return any(p.kind == "city" and p.major for p in load().candidates(name))


def _wants_region(doc: Doc, start_char: int, end_char: int) -> str | None:
    """The area kind a following noun asks for, possibly across a coordination
    ("Donetsk region", "the Donetsk and southern Mykolaiv regions", "Izium district"); a
    village after a city's name is one of its region ("an occupied Kherson village"), and
    `_named_area` takes the region only where it is named like the town."""
    span = doc.char_span(start_char, end_char, alignment_mode="expand")
    if span is None:
        return None
    i = span.end
    if i < len(doc) and doc[i].lower_ in _RURAL and doc[i].text.islower() and _city(span.text):
        return "admin1"  # 'a Kherson village': the region's, if the region bears the name
    for _ in range(5):
        if i >= len(doc):
            return None
        tok = doc[i]
        if _area_word(tok.text):
            return _area_word(tok.text)
        if tok.lower_ == "local" and doc[i + 1 : i + 3].text.lower() == "government area":
            return "admin2"  # Nigeria's districts: "Maru local government area"
        if tok.pos_ not in {"ADJ", "CCONJ", "PROPN", "PUNCT"} or tok.text in {".", ";", ":"}:
            return None
        i += 1
    return None


def _with_area_word(m: _Mention) -> _Mention:
    """ "Rakhine State", "Masisi Territory" tagged whole: look up the name, want the area."""
    head, _, last = m.text.rpartition(" ")
    kind = _area_word(last) if head else None
    return replace(m, wants=kind, key=head) if kind else m


@cache
def _speech_verbs() -> frozenset[str]:
    return frozenset(lexicon.words("places_speech_verbs.txt"))


def _metonym(doc: Doc, start: int, end: int) -> bool:
    """ "Moscow denied", "Washington said": the government there speaks; no incident place."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None:
        return False
    root = span.root
    return (
        root.dep_ in {"nsubj", "nsubjpass"}
        and root.head.lemma_.lower() in _speech_verbs()
        and not (span.start > 0 and doc[span.start - 1].pos_ == "ADP")
    )


def _organisation(doc: Doc, start: int, end: int) -> bool:
    """ "Damascus University", "the Kyiv Independent": a place name inside an organisation's."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None or span.end >= len(doc):
        return False
    nxt = doc[span.end]
    heads = lexicon.words("places_org_heads.txt")
    return nxt.text[:1].isupper() and nxt.lower_ in heads and not nxt.is_sent_start


_KIN = frozenset(
    ("father", "mother", "son", "daughter", "brother", "sister", "husband", "wife", "uncle")
    + ("aunt", "grandfather", "grandmother", "cousin", "nephew", "niece", "child", "boy", "girl")
    + ("neighbour", "neighbor", "friend", "colleague", "comrade", "classmate")
)


def _family_name(doc: Doc, start: int, end: int) -> bool:
    """ "the Khalil family's house", "the father, Ahmad,", "our neighbour Petro": a person's
    or family's name that a village somewhere also bears."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None:
        return False
    if span.end < len(doc) and doc[span.end].lemma_.lower() in ("family", "clan", "household"):
        return True
    if span.start and doc[span.start - 1].lemma_.lower() in _KIN:  # 'our neighbour Petro'
        return True
    root = span.root
    return root.dep_ == "appos" and root.head.lemma_.lower() in _KIN


_OPENING = "'\"" + marks.DOUBLE_OPEN + marks.SINGLE_OPEN  # a quote's first mark


def _addressed(doc: Doc, start: int, end: int) -> bool:
    """ "'Papa, they took Grace'": the first word of a quote, then a comma, is someone
    spoken to, not a place (a town in Hungary is called Pápa)."""
    before = text_of(doc)[:start].rstrip(" ")
    return bool(before) and before[-1] in _OPENING and text_of(doc)[end : end + 1] == ","


def _after_the(doc: Doc, start_char: int) -> bool:
    return text_of(doc)[max(0, start_char - 4) : start_char].lower() == "the "


def _mentions(doc: Doc, entities: list[EntityMention]) -> list[_Mention]:
    """Place mentions from the entities stage, plus capitalised words before a region noun
    that nothing tagged (misspellings: "Donestk region")."""
    out = [
        _with_area_word(
            _Mention(
                e.start, e.end, e.text, _wants_region(doc, e.start, e.end), _after_the(doc, e.start)
            )
        )
        for e in entities
        if e.kind == "place"
        and not _metonym(doc, e.start, e.end)
        and not _organisation(doc, e.start, e.end)
        and not _family_name(doc, e.start, e.end)
        and not _addressed(doc, e.start, e.end)
    ]
    covered = {i for e in entities for i in range(e.start, e.end)}
    texts = column(doc, "text")
    for i in range(len(doc) - 1):
        if not (_area_word(texts[i + 1]) and texts[i + 1].islower()):
            continue  # "Donestk region"; not "the State Department"
        tok, nxt = doc[i], doc[i + 1]
        if (
            not _area_word(tok.text)
            and tok.is_title
            and tok.pos_ == "PROPN"
            and tok.idx not in covered
            and not tok.is_sent_start
        ):
            out.append(_Mention(tok.idx, tok.idx + len(tok.text), tok.text, _area_word(nxt.text)))
    return sorted((replace(m, sent=_sentence_of(doc, m.start)) for m in out), key=lambda m: m.start)


def _sentence_of(doc: Doc, start_char: int) -> int:
    span = doc.char_span(start_char, start_char + 1, alignment_mode="expand")
    return span.sent.start if span is not None else -1


class Resolver:
    """Ranks gazetteer candidates for the place mentions of one document."""

    _admin1: dict[tuple[str, str], Place] | None = None  # shared: built once per process

    def __init__(self, gaz: Gazetteer) -> None:
        self.gaz = gaz

    def context(self, cands: list[list[Place]]) -> tuple[Counter[str], Counter[str]]:
        """Country and admin1 weights from mentions with one reading (or one country); a
        town and the district named after it ("Goma") count as one reading."""
        countries: Counter[str] = Counter()
        regions: Counter[str] = Counter()
        for options in cands:
            cc = _reading_country(options)
            if cc is not None:
                countries[cc] += 1
            areas = {f"{p.country}.{p.admin1_code}" for p in options}
            if options and len(areas) == 1 and options[0].kind != "country":
                regions[areas.pop()] += 1
            elif options and options[0].kind == "country":
                countries[options[0].country] += 1
        return countries, regions

    def score(
        self, p: Place, wants: str | None, countries: Counter[str], regions: Counter[str]
    ) -> float:
        total_c = sum(countries.values()) or 1
        total_r = sum(regions.values()) or 1
        s = math.log10(p.population + 10)
        if wants == "admin2":
            s += {"admin2": 20.0, "admin1": 14.0}.get(p.kind, 0.0)
        elif wants:
            s += {"admin1": 20.0, "admin2": 12.0}.get(p.kind, 0.0)
        else:
            s += {"country": 12.0, "city": 2.0}.get(p.kind, 0.0)
        if _capital(p):
            s += 1.5  # a national capital outranks its namesakes ("Athens")
        s += 6 * countries[p.country] / total_c
        s += 3 * regions[f"{p.country}.{p.admin1_code}"] / total_r
        return s

    def resolve(
        self, mentions: list[_Mention], text: str = "", demonyms: Counter[str] | None = None
    ) -> list[Place | None]:
        """Best reading of each mention: first on its own with the document's countries and
        regions, then again inside the area a qualifier names ("Paris, Texas", "Lyman,
        Donetsk region") and nearest the document's other places."""
        cands = [self.gaz.candidates(m.lookup) for m in mentions]
        words = english_words()
        countries, regions = self.context(
            [
                c
                for m, c in zip(mentions, cands, strict=True)
                if m.text.lower() not in words or (c and c[0].kind == "country")
            ]
        )
        countries.update(demonyms or Counter())  # "Pakistani officials", "Malian troops"
        # a name told twice must not vote twice for its own namesake's country ("Hamas"
        # is listed as a name of Hamm, Germany): its reading is judged by the others' votes
        told = Counter(m.lookup.lower() for m in mentions)
        pools = [
            self._options(m, options, countries, told[m.lookup.lower()])
            for m, options in zip(mentions, cands, strict=True)
        ]
        first = [
            max(pool, key=lambda p: self.score(p, m.wants, countries, regions)) if pool else None
            for m, pool in zip(mentions, pools, strict=True)
        ]
        out = list(first)
        named = {p.country for p in first if p is not None and p.kind == "country"}
        qualified_at: list[int] = []  # mentions a qualifier placed ("POKROVSK, Ukraine")
        for i, (m, pool) in enumerate(zip(mentions, pools, strict=True)):
            if not pool:
                continue
            pool, qualified = self._qualified(i, mentions, first, text, pool)
            if qualified:
                qualified_at.append(i)
            anchors = [
                p
                for k, p in enumerate(first)
                if k != i and p is not None and p.kind in {"city", "admin2"} and p not in pool
            ]

            here = {
                p.country
                for k, p in enumerate(first)
                if p is not None and p.kind == "country" and mentions[k].sent == m.sent
            }

            def total(
                p: Place, m: _Mention = m, anchors: list[Place] = anchors, here: set[str] = here
            ) -> float:
                s = self.score(p, m.wants, countries, regions)
                s += 3 if p.country in here else 0  # "In Lebanon, ... outside Tripoli"
                if anchors and p.kind in {"city", "admin2"}:
                    km = min(_km(p, a) for a in anchors)
                    s += 2 * math.exp(-km / NEAR_KM)  # the nearest consistent reading
                return s

            best = max(pool, key=total)
            nearest = min((_km(best, a) for a in anchors), default=math.inf)
            famous = [p for p in pool if _capital(p)]
            # a namesake of a capital must be tied to the story: a qualifier, a place of the
            # story nearby, or its country named ("Tripoli" in a Lebanon story)
            tied = qualified or nearest <= TIE_KM or best.country in named
            if famous and best.kind == "city" and best not in famous and not tied:
                best = max(famous, key=total)
            own = _reading_country(cands[i])
            others = countries - Counter({own: told[m.lookup.lower()]} if own else {})
            abroad = others and best.country not in others and not _famous(best)
            if abroad and best.kind == "city" and not qualified and anchors and nearest > TIE_KM:
                out[i] = None  # a small town only across a border, far from the story
                continue
            if not cands[i] and not self._likely_misspelt(best, regions, nearest):
                out[i] = None  # "Berdychi" is a village of its own, not Berdychiv misspelt
                continue
            out[i] = best
        # One place per name in a document: "POKROVSK, Ukraine" in the dateline places the
        # bare "Pokrovsk" of the next sentence too (it had gone to a namesake in Russia).
        tied_by: dict[str, Place] = {}
        for i in qualified_at:
            reading = out[i]
            if reading is not None:
                tied_by.setdefault(mentions[i].lookup.lower(), reading)
        for i, m in enumerate(mentions):
            placed = tied_by.get(m.lookup.lower())
            if placed is not None and out[i] is not None and placed in pools[i]:
                out[i] = placed
        return [self._named_area(m, p) for m, p in zip(mentions, out, strict=True)]

    @staticmethod
    def _likely_misspelt(p: Place, regions: Counter[str], nearest: float) -> bool:
        """A near spelling names a place the story is about ("Donestk" in a report on
        Bakhmut): a region, a famous city, a town in one of the story's regions or near
        its other places. Else the name is likely a village the gazetteer lacks, spelled
        right, and its near namesake ("Pishchanka" for Pishchanivka) is elsewhere."""
        if p.kind != "city" or _famous(p) or nearest <= NEAR_KM:
            return True
        return regions[f"{p.country}.{p.admin1_code}"] > 0

    def _named_area(self, m: _Mention, p: Place | None) -> Place | None:
        """ "Kursk region" when GeoNames lists the oblast only as "Kurskaya oblast'": the
        region of the town, if its name starts like the town's."""
        if p is None or m.wants != "admin1" or p.kind != "city":
            return p
        if Resolver._admin1 is None:
            Resolver._admin1 = {
                (a.country, a.admin1_code): a for a in self.gaz.places.of_kind("admin1")
            }
        area = Resolver._admin1.get((p.country, p.admin1_code))
        if area is not None and normalize(area.name)[:4] == normalize(m.lookup)[:4]:
            return area
        return p

    def _options(
        self, m: _Mention, options: list[Place], countries: Counter[str], told: int
    ) -> list[Place]:
        """Candidates that the document's countries leave possible (`told`: how many times
        the document names it, each a vote for its own reading's country)."""
        words = english_words()
        top = [cc for cc, _ in countries.most_common(3)]
        if not options and top and len(m.lookup) >= 4:
            options = [p for p in self.gaz.fuzzy(m.lookup, top)[:5] if p.kind != "admin2"]
            if m.wants:
                options = [p for p in options if p.kind in {"admin1", "admin2"}] or options
        if countries:  # a region or village abroad is a namesake, not the place meant
            own = _reading_country(self.gaz.candidates(m.lookup))
            others = countries - Counter({own: told} if own else {})
            options = [
                p
                for p in options
                if p.major and p.kind != "admin1" or p.country in countries
                if p.kind != "admin2" or p.country in others  # districts: named elsewhere too
            ]
            if others:  # the other mentions' countries, when there are any
                options = [p for p in options if _famous(p) or gazetteer.near(p.country, others)]
        if m.after_the and m.text.split()[-1].lower() in _WATERS and not m.wants:
            return []  # "the Red Sea" is the sea, not Sudan's Red Sea state
        if m.text.lower() in words:  # "the West": no namesake town
            options = [
                p
                for p in options
                if p.kind == "country" or (p.country in countries and not m.after_the)
            ]
        return options

    @staticmethod
    def _qualified(
        i: int, mentions: list[_Mention], first: list[Place | None], text: str, pool: list[Place]
    ) -> tuple[list[Place], bool]:
        """The readings inside (or near) the area the next mention names, or the areas
        around the town just before it, if any fit; and whether there were such."""
        if i > 0 and first[i - 1] is not None:  # "Atlanta, Georgia": the state, not Georgia
            town = first[i - 1]
            assert town is not None
            gap = text[mentions[i - 1].end : mentions[i].start]
            if _QUALIFIER.match(gap):
                around = [p for p in pool if p.kind in {"admin1", "country"} and _inside(town, p)]
                if around:
                    return around, True
            after = text[mentions[i].end : mentions[i].end + 20]
            if town.kind == "city" and _POSSESSIVE.match(gap) and _PART_AFTER.match(after):
                return _part_of(town, pool), True
        if i + 1 >= len(mentions) or first[i + 1] is None:
            return pool, False
        gap = text[mentions[i].end : mentions[i + 1].start]
        area = first[i + 1]
        assert area is not None
        listed = gap.lstrip().startswith(",") and not mentions[i + 1].wants
        if listed and area.kind not in {"admin1", "country"}:
            return pool, False  # "Kherson, Mykolaiv and Odesa": a list, not a qualifier
        part = _PART_OF.match(gap) or (
            _PART_AFTER.match(" " + mentions[i].text.split()[-1]) and _OF.match(gap)
        )
        if part and area.kind == "city":
            return _part_of(area, pool), True
        if _QUALIFIER.match(gap) or part:
            inside = [p for p in pool if _inside(p, area)]
        elif _NEAR.match(gap):
            inside = [p for p in pool if p.kind != "country" and _km(p, area) <= NEAR_KM]
        else:
            return pool, False
        return inside or pool, bool(inside)


def _part_of(city: Place, pool: list[Place]) -> list[Place]:
    """A district or neighbourhood of a city: the readings of its name in that city, else
    the city itself (a namesake village elsewhere is not where it happened)."""
    return [p for p in pool if p.kind != "country" and _km(p, city) <= CITY_KM] or [city]


def _reading_country(options: list[Place]) -> str | None:
    """The country a name alone points to: its only one, the one of its biggest kind
    ("Texas": the state, whatever Mexican hamlets share the name), or the one holding
    nearly all its people ("Karachi")."""
    if not options:
        return None
    top = options[0].kind if options[0].kind in {"admin1", "country"} else None
    ccs = {p.country for p in options if top is None or p.kind == top}
    if len(ccs) == 1:
        return ccs.pop()
    if top is not None:
        return None
    pops: Counter[str] = Counter()
    for p in options:
        pops[p.country] += p.population + 1
    cc, pop = pops.most_common(1)[0]
    return cc if pop >= DOMINANT_SHARE * sum(pops.values()) else None


def _km(a: Place, b: Place) -> float:
    return distance_km(a.lat, a.lon, b.lat, b.lon)


def _inside(p: Place, area: Place) -> bool:
    """Whether a reading lies in the area ("Paris" in Texas, "Borova" in Izium district)."""
    if p.country != area.country or p == area:
        return False
    if area.kind == "country":
        return True
    if area.kind == "admin1":
        return p.admin1_code == area.admin1_code
    return _km(p, area) <= NEAR_KM


def _surface_name(text: str, place: Place, gaz: Gazetteer) -> str:
    """The source's own spelling when it is one of the town's names ("El Geneina", "Ardamata"
    for "'Ārdamatā"), so investigators see the report's words; the GeoNames primary name for
    regions, countries and fuzzy matches ("Donestk")."""
    if place.kind != "city" or place not in gaz.candidates(text):
        return place.name
    return _clean_name(text)


def _one_name_each(refs: list[PlaceRef]) -> list[PlaceRef]:
    """One spelling per place in a document: the one the source uses most ("Axum" four
    times, "Aksum" once), the first seen on ties."""
    names: dict[int, Counter[str]] = {}
    for p in refs:
        if p.geonames_id is not None:
            names.setdefault(p.geonames_id, Counter())[p.name] += 1
    return [
        replace(p, name=names[p.geonames_id].most_common(1)[0][0])
        if p.geonames_id is not None
        else p
        for p in refs
    ]


def _clean_name(text: str) -> str:
    name = text[4:] if text[:4] == "the " else text  # "the Donbas", but "The Hague"
    if name.isupper():
        name = " ".join("-".join(w.capitalize() for w in part.split("-")) for part in name.split())
    return name[:1].upper() + name[1:]


def _demonym_countries(doc: Doc, gaz: Gazetteer) -> Counter[str]:
    """Countries named by nationality words ("Pakistani", "Malian troops"), as context."""
    from corroborator.nlp.stages.entities import country_of

    out: Counter[str] = Counter()
    for ent in doc.ents:
        name = country_of(ent.text) if ent.label_ == "NORP" else None
        place = (
            next((p for p in gaz.candidates(name) if p.kind == "country"), None) if name else None
        )
        if place is not None:
            out[place.country] += 1
    return out


def resolve_places(doc: Doc, entities: list[EntityMention], gaz: Gazetteer) -> list[PlaceRef]:
    mentions = _mentions(doc, entities)
    out: list[PlaceRef] = []
    resolved = Resolver(gaz).resolve(mentions, text_of(doc), _demonym_countries(doc, gaz))
    for m, place in zip(mentions, resolved, strict=True):
        if place is None:
            continue
        out.append(
            PlaceRef(
                start=m.start,
                end=m.end,
                text=m.text,
                name=_surface_name(m.text, place, gaz),
                geonames_id=place.geonameid,
                lat=place.lat,
                lon=place.lon,
                admin1=place.admin1,
                country=place.country,
                precision=_PRECISION[place.kind],
            )
        )
    out = _one_name_each(out)
    gpe = [(m.start, m.end) for m in mentions if m.text and _is_gpe(doc, m.start, m.end)]
    text = text_of(doc)
    located = [
        (m.start, m.end)
        for m, place in zip(mentions, resolved, strict=True)
        if place is None
        and not m.after_the  # 'the Donbas', 'the Catatumbo'
        and _where_it_happened(doc, m.start, m.end)
        # a known town left unresolved stays so (Geneva in a report on Colombia); a small
        # namesake abroad is no reason (Liancourt in France, Liancourt in Haiti)
        and not any(c.major for c in gaz.candidates(m.lookup))
        and not _region_name(text, m.text)
    ]
    return sorted(out + unlisted_settlements(doc, out, gpe, located), key=lambda p: p.start)


# ------------------------------------------------------------ settlements not in GeoNames

_RANK = {"settlement": 0, "admin2": 1, "admin1": 2, "country": 3, "unknown": 4}
_LINKS = {"in", "near", "outside", "of", "by", "at"}
_PARTICLES = {"al", "el", "ad", "ar", "as", "ash", "az", "ez", "de", "du", "la", "le", "des"}
_PARTICLES |= {"bin", "ibn", "um", "umm", "van", "von", "-"}
_NOT_NAMES = {"DATE", "TIME", "NORP", "CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY"}
_STOPS = {",", ";", ":", "(", ")", "—", "–", ".", "!", "?", '"', "“", "”"}
_WINDOW = 8  # tokens after a settlement in which its region may be named
DIRECTIONS = {"north", "south", "east", "west", "northeast", "northwest", "southeast"}
DIRECTIONS |= {"southwest", "north-east", "north-west", "south-east", "south-west"}
_MAX_NAME = 4


_word_list = lexicon.words


def _is_gpe(doc: Doc, start: int, end: int) -> bool:
    span = doc.char_span(start, end)
    return span is not None and any(t.ent_type_ == "GPE" for t in span)


def _name_token(tok: Token, named: bool = False) -> bool:
    """A capitalised proper-noun word that can be part of a place name. After "the village
    of" (`named`) a NORP tag is the small model's guess for an unfamiliar name, unless it is
    a nationality word; before "village" it is a people ("a Fulani village")."""
    norp = named and tok.ent_type_ == "NORP" and not _demonym(tok.text.rstrip("s"))
    return (
        tok.text[:1].isupper()
        and tok.text[:1].isalpha()
        and (tok.ent_type_ not in _NOT_NAMES or norp)
        and (tok.pos_ == "PROPN" or tok.ent_type_ in {"GPE", "LOC", "ORG", "PERSON", "FAC"})
        and tok.lower_ not in _word_list("places_settlements.txt")
    )


def _demonym(text: str) -> bool:
    """'Ukrainian', 'Sudanese': a nationality word, not a place name."""
    low = text.lower()
    return low in _demonyms() or low.endswith(("ian", "ese", "ean", "ish", "yan"))


@cache
def _demonyms() -> frozenset[str]:
    return frozenset(r[0] for r in lexicon.rows("entities_demonyms.tsv"))


def _name_after(doc: Doc, i: int) -> int:
    """End (exclusive) of the capitalised name that starts at token i, or i if none."""
    j, words = i, 0
    while j < len(doc) and words < _MAX_NAME:
        tok = doc[j]
        if _name_token(tok, True) and (j == i or not tok.is_sent_start):
            j, words = j + 1, words + 1
        elif j > i and tok.lower_ in _PARTICLES and j + 1 < len(doc) and _name_token(doc[j + 1]):
            j += 1
        elif j > i and j + 1 < len(doc) and _joined(doc, j) and _name_token(doc[j + 1]):
            j += 1  # 'Khin-U'
        else:
            break
    return j


def _joined(doc: Doc, j: int) -> bool:
    """Token j is a hyphen written tight between two words: one name ('Khin-U')."""
    return doc[j].text == "-" and not doc[j - 1].whitespace_ and not doc[j].whitespace_


def _name_before(doc: Doc, j: int) -> int:
    """Start of the capitalised name that ends just before token j, or j if none."""
    i, words = j, 0
    while i > 0 and words < _MAX_NAME and _name_token(doc[i - 1]):
        i, words = i - 1, words + 1
        if doc[i].is_sent_start:
            break
        # 'Al-Kadaris village', 'Khin-U township': a particle or name hyphened to it
        if i >= 2 and _joined(doc, i - 1):
            if doc[i - 2].lower_ in _PARTICLES:
                i -= 2
                break
            if _name_token(doc[i - 2]):
                i -= 1
    return i


def _cued_names(doc: Doc) -> list[tuple[int, int, int]]:
    """(first token, end token, token after the cue) of names the text calls settlements."""
    nouns = _word_list("places_settlements.txt")
    out: list[tuple[int, int, int]] = []
    lowers, texts = column(doc, "lower_"), column(doc, "text")
    for i in range(len(doc)):
        if lowers[i] not in nouns or not texts[i].islower():
            continue
        tok = doc[i]
        if i + 1 < len(doc) and doc[i + 1].lower_ == "of":  # "the village of X"
            end = _name_after(doc, i + 2)
            if end > i + 2:
                out.append((i + 2, end, end))
        start = _name_before(doc, i)  # "X village"; not "the Tigrayan town of Axum"
        named_after = (
            i + 2 < len(doc) and doc[i + 1].lower_ == "of" and _name_after(doc, i + 2) > i + 2
        )
        if start < i and not named_after and not _demonym(doc[start:i].text):
            out.append((start, i, i + 1))
        # "X, a (small frontline) village near Y", "X, a Dogon farming village"
        k = i - 1
        while k > 0 and doc[k].lower_ not in {"a", "an"} and _describes(doc[k], i):
            k -= 1
        compound = tok.dep_ == "compound"  # "Ann Lee, a town councillor": not a town
        # "X, a teacher from the town of Y": the town is Y's, X is not a town
        described = all(t.pos_ in {"ADJ", "NOUN", "PROPN", "ADV", "NUM"} for t in doc[k + 1 : i])
        if k >= 2 and i - k <= 4 and doc[k].lower_ in {"a", "an"} and doc[k - 1].text == ",":
            if compound or not described:
                continue
            start = _name_before(doc, k - 1)
            # a name the tagger took for a person is still the village the apposition
            # calls it ("attacked Nguli, a village in ...")
            person = doc[start].ent_type_ == "PERSON" and tok.dep_ != "appos"
            if start < k - 1 and not person:
                out.append((start, k - 1, i + 1))
    return out


def _describes(tok: Token, noun: int) -> bool:
    """A word of the description before a settlement noun: lower-case, or a capitalised
    people's or region's name modifying a word up to the noun ('a Dogon farming village')."""
    if tok.text.islower():
        return True
    return tok.dep_ in ("amod", "compound", "nmod") and tok.i < tok.head.i <= noun


def _named_near(doc: Doc) -> list[Span]:
    """Names the model took for an organisation or a person that stand where only a place
    can: "near Umm Baru in North Darfur" (the caller asks for the region after them)."""
    return [
        ent
        for ent in doc.ents
        if ent.label_ in {"ORG", "PERSON"}
        and ent.start > 0
        and doc[ent.start - 1].lower_ in {"near", "outside"}
        and all(_name_token(t) or t.lower_ in _PARTICLES for t in ent)
    ]


def _region_after(doc: Doc, after: int, refs: list[PlaceRef]) -> PlaceRef | None:
    """The most precise resolved place in the phrase that follows ("in Y's Z region",
    ", in Y", "west of Y")."""
    if after < len(doc) and doc[after].text == ",":
        after += 1
    if after + 1 < len(doc) and doc[after].lower_ in DIRECTIONS and doc[after + 1].lower_ == "of":
        after += 1
    if after >= len(doc) or doc[after].lower_ not in _LINKS:
        return None
    end = after + 1
    while end < min(len(doc), after + _WINDOW) and doc[end].text not in _STOPS:
        if doc[end].is_sent_start:
            break
        end += 1
    lo, hi = doc[after].idx, doc[end - 1].idx + len(doc[end - 1])
    near = [p for p in refs if lo <= p.start and p.end <= hi and p.geonames_id is not None]
    return min(near, key=lambda p: (_RANK[p.precision], p.start), default=None)


_Where = tuple[str | None, str | None, PlaceRef | None]  # admin1, country, nearest known place


def _context_region(doc: Doc, tok: int, refs: list[PlaceRef]) -> _Where:
    """(admin1, country, place) from the sentence's one named region (the sentence's most
    precise place of that region gives the position), else the document's main country."""
    sent = doc[tok].sent
    in_sent = [
        p
        for p in refs
        if sent.start_char <= p.start < sent.end_char and p.admin1 and p.precision != "country"
    ]
    if len({(p.admin1, p.country) for p in in_sent}) == 1:
        best = min(in_sent, key=lambda p: (_RANK[p.precision], p.start))
        return best.admin1, best.country, best if best.geonames_id is not None else None
    countries = Counter(p.country for p in refs if p.country and p.geonames_id is not None)
    if not countries:
        return None, None, None
    main = countries.most_common(1)[0][0]
    whole = next((p for p in refs if p.precision == "country" and p.country == main), None)
    return None, main, whole


_LOCATIVE = frozenset(("in", "near", "outside", "at", "into", "around", "inside"))
_PLACE_TAGS = frozenset(("GPE", "LOC", "FAC"))


def _where_it_happened(doc: Doc, start: int, end: int) -> bool:
    """'rode into Um Dukhun', 'a call in Arnoun', 'her field outside Lulingu': a name the
    model tags as a place, as the object of a locative preposition, is a place even where
    the gazetteer lacks it; not a feature ("the Nuba Mountains"), a continent or large
    region ("Darfur") or a people."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None or not len(span) or not all(_name_token(t) for t in span):
        return False
    if not all(t.ent_type_ in _PLACE_TAGS for t in span) or _demonym(span.text):
        return False
    if len(span) == 1 and span.text.lower() in english_words():  # 'in West and South ...'
        return False
    if span.text.lower() in _word_list("places_areas.txt"):  # 'in Europe', 'in Darfur'
        return False
    if span[-1].lower_ in _word_list("places_features.txt"):
        return False
    root = span.root
    return root.dep_ == "pobj" and root.head.lower_ in _LOCATIVE


_SUBDIVISIONS = {"zone", "zones", "sector", "sectors", "chiefdom", "groupement", "canton"}
_COMPASS = (
    r"(?:north|south|east|west|central|upper|lower)(?:ern)?|(?:north|south)-?(?:east|west)(?:ern)?"
)


def _region_name(text: str, name: str) -> bool:
    """'North Darfur', 'eastern Siberia', 'Karenni State', 'Kordofan region': a name the
    report itself uses as an area's, which no settlement is (`_REGION_WORDS`,
    `_DISTRICT_WORDS` or a smaller subdivision ('the Bapere sector') after it, a compass
    word before it)."""
    n = re.escape(name)
    areas = "|".join(sorted(_REGION_WORDS | _DISTRICT_WORDS | _SUBDIVISIONS))
    return bool(
        re.search(rf"\b(?:{_COMPASS})\s+{n}(?![\w-])", text, re.I)
        or re.search(rf"(?<![\w-]){n}\s+(?:{areas})\b", text, re.I)
    )


def unlisted_settlements(
    doc: Doc,
    refs: list[PlaceRef],
    gpe_mentions: list[tuple[int, int]],
    located: list[tuple[int, int]],
) -> list[PlaceRef]:
    """PlaceRefs for settlements the gazetteer does not know (see the module docstring);
    `located` are unresolved place mentions that `_where_it_happened` vouches for."""
    taken = {i for p in refs for i in range(p.start, p.end)}
    text = text_of(doc)
    found: dict[tuple[int, int], _Where] = {}
    cands = [(s, e, a, False) for s, e, a in _cued_names(doc)]
    for start, end in located:
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is None:
            continue
        first = span.start  # 'Um Dukhun': the model may leave a particle out
        if first and doc[first - 1].lower_ in _PARTICLES and doc[first - 1].text[:1].isupper():
            first -= 1
        name = re.escape(doc[first : span.end].text)
        if re.search(rf"['\u2019]s {name}(?![\w-])", text):
            continue  # "in Tuffah" after "Gaza City's Tuffah": a part of that city
        cands.append((first, span.end, span.end, False))
    for start, end in gpe_mentions:  # "X in/near Y" with X tagged as a place
        span = doc.char_span(start, end)
        if span is not None and span[-1].lower_ not in _word_list("places_features.txt"):
            cands.append((span.start, span.end, span.end, True))
    cands += [(ent.start, ent.end, ent.end, True) for ent in _named_near(doc)]
    for s, e, after, needs_region in cands:
        lo, hi = doc[s].idx, doc[e - 1].idx + len(doc[e - 1])
        if any(i in taken for i in range(lo, hi)) or (lo, hi) in found:
            continue
        region = _region_after(doc, after, refs)
        if needs_region and (region is None or region.precision == "country"):
            continue  # "Darfur in western Sudan": a region, not a village
        if region is not None:
            found[(lo, hi)] = (
                region.admin1 if region.precision != "country" else None,
                region.country,
                region,
            )
        else:
            found[(lo, hi)] = _context_region(doc, s, refs)
    out = [
        uncharted(text, lo, hi, _clean_name(text[lo:hi]), *where)
        for (lo, hi), where in found.items()
    ]
    return out + repeated(text, out, taken)


class PlacesStage:
    """Appends a PlaceRef for every place mention the gazetteer can resolve."""

    name = "corroborator.places.v2"

    def __call__(self, ctx: DocContext) -> None:
        ctx.extraction.places.extend(resolve_places(ctx.doc, ctx.extraction.entities, load()))
