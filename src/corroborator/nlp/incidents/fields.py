"""Where and when an incident happened, chosen among the place and date records around it.

Not every place or date in a report's sentence is the act's: "Kharkiv regional Gov."
names an official, "fleeing towards Chad" a destination, "a nurse from Mykolaiv" a
home town, "a court in Dnipro" where the case is heard, "days after a strike in Kharkiv"
another act, "a report published last week" the report, "since seizing power in 2021"
the background. The place is the most specific
one left in the mention sentences, else the document's main place; the date is the most
precise event date in the mention sentences, else one in their paragraph, else the
document's only event date in a sentence that tells an act; outside the mention sentences,
never the date of an earlier act the report recalls.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

from spacy.tokens import Doc, Span, Token

from corroborator.models import DateRef, PlaceRef
from corroborator.nlp import lexicon
from corroborator.nlp.columns import lows
from corroborator.nlp.incidents import passing
from corroborator.nlp.incidents.context import words
from corroborator.nlp.incidents.lexicon import is_act, low
from corroborator.nlp.incidents.scope import CARE
from corroborator.nlp.pipeline import text_of
from corroborator.nlp.stages.dates import told_overnight
from corroborator.nlp.stages.places import DIRECTIONS

_PRECISION = {"settlement": 0, "admin2": 1, "admin1": 2, "country": 3, "unknown": 4}
_DATE_PRECISION = {"day": 0, "week": 1, "month": 2, "year": 3, "unknown": 4}
_TITLE_FILLER = {"regional", "region", "region's", "oblast", "provincial", "city", "state"}
_TITLE_FILLER |= {"district", "military", "'s", "’s", "-"}


def _root(doc: Doc, start: int, end: int) -> Token | None:
    span = doc.char_span(start, end, alignment_mode="expand")
    return span.root if span is not None and len(span) else None


def _in_title(doc: Doc, p: PlaceRef) -> bool:
    """'Kharkiv regional Gov. Oleh Marchenko', 'Donetsk Oblast Governor': an office's name."""
    span = doc.char_span(p.start, p.end, alignment_mode="expand")
    if span is None:
        return False
    for t in doc[span.end : span.end + 3]:
        low = t.lower_
        if low in words()["title"] and low not in _TITLE_FILLER:
            return True
        if low not in _TITLE_FILLER:
            return False
    return False


def _destination(doc: Doc, p: PlaceRef) -> bool:
    """'People fleeing towards Chad': where victims went is not where the act was."""
    tok = _root(doc, p.start, p.end)
    hops = 0
    while tok is not None and hops < 4 and tok.head.i != tok.i:
        if tok.dep_ == "pobj" and tok.head.lower_ in ("to", "towards", "toward", "into", "for"):
            verb = tok.head.head
            while verb.dep_ == "prep" and verb.head.i != verb.i:  # 'from X to Y'
                verb = verb.head
            return verb.lemma_.lower() in words()["flight"]
        tok, hops = tok.head, hops + 1
    return False


def _through(doc: Doc, p: PlaceRef, preposition: str) -> Token | None:
    """The word a place hangs on through this preposition ('launched' in 'launched from
    Crimea', 'nurse' in 'a nurse from Mykolaiv'), if it does."""
    tok = _root(doc, p.start, p.end)
    if tok is None or tok.dep_ != "pobj" or tok.head.lower_ != preposition:
        return None
    return tok.head.head


def _launch_site(doc: Doc, p: PlaceRef) -> bool:
    """'The missile, launched from Crimea, hit a block', 'shelled from the left bank':
    where a weapon flew from is not where the act was."""
    above = _through(doc, p, "from")
    return above is not None and above.lemma_.lower() in words()["launch"]


def _home(doc: Doc, p: PlaceRef) -> bool:
    """'a nurse from Mykolaiv', 'the driver, a man from Orikhiv': where a person comes
    from, second to a place the sentence gives the act ('villagers from X' alone is the
    best clue there is; a verb's 'from' is left alone: 'abducted from Kulbus')."""
    above = _through(doc, p, "from")
    return above is not None and above.pos_ in ("NOUN", "PROPN", "PRON")


_RESIDE = frozenset(("live", "reside", "settle"))


def _residence(doc: Doc, p: PlaceRef) -> bool:
    """'a farmer who now lives in Monywa': where someone lives (a witness since fled)
    is never the act's place."""
    above = _through(doc, p, "in")
    return above is not None and above.lemma_.lower() in _RESIDE


_CARED = frozenset(
    ("die", "succumb", "treat", "take", "transfer", "bring", "rush", "carry", "evacuate")
    + ("admit", "hospitalize", "hospitalise", "remain", "recover", "airlift", "send")
)


def _care(doc: Doc, p: PlaceRef) -> bool:
    """'died on Saturday in a hospital in Pavlohrad', 'was taken to a Dnipro clinic': where
    a victim was treated or died of wounds is not where the act was. A hospital that was
    hit ('shelled the hospital in Beryslav') keeps its town."""
    tok = _root(doc, p.start, p.end)
    if tok is None:
        return False
    if tok.dep_ == "pobj" and tok.head.lower_ in ("in", "at", "of") and tok.head.head.i != tok.i:
        tok = tok.head.head  # 'a hospital in Pavlohrad'
    elif tok.dep_ in ("compound", "amod", "nmod"):
        tok = tok.head  # 'a Dnipro clinic'
    else:
        return False
    if tok.lemma_.lower() not in CARE and not (
        tok.lower_ == "care" and any(c.lower_ == "intensive" for c in tok.children)
    ):
        return False
    above = tok.head
    if tok.dep_ == "pobj" and above.dep_ == "prep":
        above = above.head
    return above.lemma_.lower() in _CARED


def _earlier_act(doc: Doc, p: PlaceRef, trigger: int) -> bool:
    """'days after a glide bomb struck a shopping centre in Kharkiv', 'a month after the
    shelling of the hospital in Beryslav', 'since the siege of Mariupol': the place of
    another act, an interval apart, that this one is dated by. It stays usable for an act
    told inside that same clause."""
    tok = _root(doc, p.start, p.end)
    temporal = words()["temporal"]
    cur = tok
    for _ in range(10):
        if cur is None or cur.head.i == cur.i:
            return False
        head = cur.head
        word = None
        if cur.dep_ == "pobj" and head.dep_ == "prep" and head.lower_ in temporal:
            word, gap = head.lower_, [c for c in head.children if c.dep_ == "npadvmod"]
        elif cur.pos_ in ("VERB", "AUX") and cur.dep_ == "advcl":
            marks = [c.lower_ for c in cur.children if c.dep_ == "mark" and c.lower_ in temporal]
            word = marks[0] if marks else None
            gap = [c for c in cur.children if c.dep_ == "npadvmod"]
        if word is not None:
            # 'after Russian soldiers were given orders ... in Kharkiv' may be the same scene
            if word != "since" and not gap:
                return False
            sub = list(cur.subtree)
            return not sub[0].idx <= trigger < sub[-1].idx + len(sub[-1])
        cur = head
    return False


_PLACING = frozenset(DIRECTIONS | {"outskirts"})  # '22 km east of X', 'the outskirts of X'


def _landmark(doc: Doc, p: PlaceRef) -> bool:
    """'a village 22 km east of Jableh', 'Bilozerka, near Kherson': a town that places
    another town, second to a town the act's words name itself ('kidnapped near Gressier'
    places the act, and stays its place)."""
    tok = _root(doc, p.start, p.end)
    if tok is None or tok.dep_ != "pobj":
        return False
    prep = tok.head
    if prep.lower_ in ("near", "outside"):
        return _a_place(prep.head)
    if prep.lower_ != "of" or prep.head.lower_ not in _PLACING:
        return False
    return any(_a_place(t) for t in list(prep.head.ancestors)[:3])


def _a_place(tok: Token) -> bool:
    """A town's name or a word for a settlement."""
    settlements = lexicon.words("places_settlements.txt")
    return tok.ent_type_ in ("GPE", "LOC") or tok.lemma_.lower() in settlements


def _court(doc: Doc, p: PlaceRef) -> bool:
    """'A court in Dnipro sentenced ...', 'was tried in Koblenz', 'the Dnipro court': where
    the case is heard, not where the act was."""
    tok = _root(doc, p.start, p.end)
    if tok is None:
        return False
    court = words()["court"]
    if tok.dep_ == "compound":
        return tok.head.lemma_.lower() in court
    return (
        tok.dep_ == "pobj"
        and tok.head.lower_ in ("in", "at")
        and tok.head.head.lemma_.lower() in court
    )


_DASHES = ("—", "–", " - ", "--")


def _dateline(doc: Doc, p: PlaceRef) -> bool:
    """'KYIV —', 'SELYDOVE, Ukraine (AP) —': where the reporter filed from. The act's
    place, if the same, is named again in the sentence."""
    text = text_of(doc)
    line = text.rfind("\n", 0, p.start) + 1
    lead = text[line : p.start].strip(" \t\"'“‘(")
    if lead:  # 'DAKAR, Senegal —': the country after a capitalised city is the dateline too
        city = lead.rstrip(", ")
        if not (
            lead.endswith(",") and city.isupper() and all(c.isalpha() or c in " -'." for c in city)
        ):
            return False
    elif not text[p.start : p.end].isupper():
        return False
    after = text[p.end : p.end + 40]
    return any(d in after for d in _DASHES)


def usable_place(doc: Doc, p: PlaceRef) -> bool:
    """A place that can be the act's: not a dateline, an office title, a destination, a
    launch site, where a witness lives, where a court sits or where the wounded were
    treated. Kept per document: every
    incident of it asks about all its places."""
    known = doc.user_data.setdefault("corroborator_usable_places", {})
    usable = known.get(p)
    if usable is None:
        usable = known[p] = not (
            _in_title(doc, p)
            or _destination(doc, p)
            or _launch_site(doc, p)
            or _dateline(doc, p)
            or _residence(doc, p)
            or _court(doc, p)
            or _care(doc, p)
        )
    return bool(usable)


def event_date(doc: Doc, d: DateRef) -> bool:
    """A date that can be the act's: not the date of the telling (unless the act happened
    the night before it, `told_overnight`) or of a period's start."""
    if _reporting(doc, d):
        tok = _root(doc, d.start, d.end)
        if tok is None or not told_overnight(tok.sent):
            return False
    return not _background(doc, d)


_DISTRICTS = (  # areas around villages ('the Bilozerka community', 'Khin-U township')
    r"(?:district|raion|territory|county|municipality|local government area|lga|community"
    r"|hromada|commune|township|chiefdom|circle|cercle)"
)
_DISTRICT_AFTER = re.compile(rf"\s+{_DISTRICTS}\b", re.I)  # 'Maru | local government area'
_DISTRICT_END = re.compile(rf"\s{_DISTRICTS}$", re.I)  # 'Bilozerka district' tagged whole


def _rank(doc: Doc, p: PlaceRef) -> int:
    """How precise a place is as an act's place: 'the Bilozerka district' and 'Maru local
    government area', read as their towns (the district being absent from GeoNames), are
    still districts, less precise than a village the report names in them."""
    if p.precision == "settlement" and (
        _DISTRICT_AFTER.match(text_of(doc), p.end) or _DISTRICT_END.search(p.text)
    ):
        return _PRECISION["admin2"]
    return _PRECISION.get(p.precision, 4)


def choose_place(
    doc: Doc,
    places: Sequence[PlaceRef],
    spans: Sequence[tuple[int, int]],
    trigger: int,
    recap: PlaceRef | None = None,
    scene_from: int = 0,
    told: Sequence[tuple[int, int]] = (),
) -> PlaceRef | None:
    """Most specific usable place in the mention spans (a landmark placing another town
    last, then the earliest span first on ties; not one of an earlier act the sentence
    dates this one by; a home town only if alone), else
    a recap sentence's place (also over a bare country), else the most specific place of
    a sentence above it in its paragraph, from `scene_from`, that tells an act (`told`:
    "Gunmen attacked the village of X. At least 16 were killed."), else the place heading
    its paragraph as a roundup's item ("DOBROPILLIA. By Monday six ..."), else, for a mention
    placed by 'there' alone, the place of the sentence before it, else the document's
    main place (a town over its country when named as often). A paragraph's other
    sentences are not used: in quoted accounts they name where the speaker was, not the
    act ('Soledar' beside a Bakhmut confession)."""
    ok = [p for p in places if usable_place(doc, p)]
    pool = [
        p
        for p in ok
        for s in spans
        if s[0] <= p.start and p.end <= s[1] and not _earlier_act(doc, p, trigger)
    ]
    pool = [p for p in pool if not _home(doc, p)] or pool
    if recap is not None and all(p.precision == "country" for p in pool):
        return recap
    if all(p.precision == "country" for p in pool) and (there := _there(doc, ok, spans)):
        return there
    if pool:
        return min(
            pool,
            key=lambda p: (
                _rank(doc, p),
                _landmark(doc, p),
                next(i for i, s in enumerate(spans) if s[0] <= p.start < s[1]),
                abs(p.start - trigger),
            ),
        )
    scene = [
        p
        for p in ok
        if scene_from <= p.start < trigger
        and p.precision != "country"
        and any(lo <= p.start < hi for lo, hi in told)
        and not _home(doc, p)
        and not _earlier_act(doc, p, trigger)
    ]
    if scene:
        return min(scene, key=lambda p: (_rank(doc, p), trigger - p.start))
    text = text_of(doc)
    heading = [  # "DOBROPILLIA. By Monday six people had died ...": a roundup item's place
        p
        for p in ok
        if p.start == scene_from and p.text.isupper() and text[p.end : p.end + 1] == "."
    ]
    if heading:
        return heading[0]
    pool = [p for p in ok if not _home(doc, p)] or ok or list(places)
    if not pool:
        return None
    # the place it names most; a town named as often as its country or region, and twice
    # at least, is the more telling (location over 30 gold sets 295 -> 298 of 435; a town
    # named twice but less than the country cost the seeds' nationwide tolls their country)
    named = Counter(p.name for p in pool)
    top = named.most_common(1)[0][1]
    towns = [p for p in pool if p.precision == "settlement" and named[p.name] >= max(2, top)]
    best = Counter(p.name for p in towns or pool).most_common(1)[0][0]
    return next(p for p in pool if p.name == best)


def _there(
    doc: Doc, places: Sequence[PlaceRef], spans: Sequence[tuple[int, int]]
) -> PlaceRef | None:
    """'He spent his captivity in a detention centre in Taganrog. ... There, guards beat
    new arrivals': a mention whose place is 'there' is where the sentence before it put
    things, across a paragraph break too; its most specific town or region."""
    for lo, hi in spans:
        span = doc.char_span(lo, hi, alignment_mode="expand")
        if span is None or not any(t.lower_ == "there" and t.dep_ == "advmod" for t in span):
            continue
        start = span[0].sent.start
        if start == 0:
            continue
        before = doc[start - 1].sent
        found = [
            p
            for p in places
            if before.start_char <= p.start < before.end_char
            and p.precision != "country"
            and not _home(doc, p)
        ]
        if found:
            return min(found, key=lambda p: (_PRECISION.get(p.precision, 4), -p.start))
    return None


def _reporting(doc: Doc, d: DateRef) -> bool:
    """A date of the telling ('said on Friday', 'a report published last week',
    'in a communiqué on 1 March', 'in a statement read on regional radio on Monday') or
    of a case brought over the act ('prosecutors on Friday served a notice of suspicion on
    the officer who ordered the strike'), not of the act."""
    tok = _root(doc, d.start, d.end)
    hops = 0
    while tok is not None and hops < 4 and tok.head.i != tok.i:
        tok, hops = tok.head, hops + 1
        lemma = tok.lemma_.lower()
        if lemma in words()["reporting"] or lemma in words()["proceedings"]:
            return True
        if tok.pos_ == "VERB":  # 'gave an interview on ...', 'a statement read on ...'
            told = [t for t in tok.children if t.dep_ in ("dobj", "nsubjpass")]
            # the noun a bare participle tells of, not 'reports that X was hit on ...'
            if tok.dep_ == "acl" and not told and not any(c.dep_ == "mark" for c in tok.children):
                told.append(tok.head)
            return any(t.lemma_.lower() in words()["reporting"] for t in told)
    return False


def died_later(verb: Token) -> bool:
    """'died in hospital', 'died of his wounds', 'succumbed to injuries': a victim's later
    death from an act told elsewhere."""
    if verb.lemma_.lower() not in ("die", "succumb"):
        return False
    return any(
        w.lemma_.lower() in _WOUNDS or w.lemma_.lower() in CARE
        for c in verb.children
        if c.dep_ == "prep" and c.lower_ in ("of", "in", "at", "from", "to")
        for w in c.children
        if w.dep_ == "pobj"
    )


_WOUNDS = frozenset(("wound", "injury", "burn"))


def _later_death(doc: Doc, d: DateRef) -> bool:
    """'a woman wounded in the strike died in hospital on Monday', 'died of his wounds on
    Friday': the day a victim died later, not the day of the act that wounded them."""
    tok = _root(doc, d.start, d.end)
    verb = next((a for a in (tok.ancestors if tok is not None else ()) if a.pos_ == "VERB"), None)
    return verb is not None and died_later(verb)


def _background(doc: Doc, d: DateRef) -> bool:
    """'since seizing power in 2021', 'since Russia invaded in February 2022': a date that
    starts a period, not an act (as the object of 'since' or inside a 'since' clause); 'the
    attack recalls the attack of February 2022': the date of an act brought to mind."""
    tok = _root(doc, d.start, d.end)
    if tok is None:
        return False
    return passing.compared(tok) or any(
        a.lower_ == "since" or any(c.dep_ == "mark" and c.lower_ == "since" for c in a.children)
        for a in tok.ancestors
    )


@cache
def _occurrence() -> dict[str, frozenset[str]]:
    """The occurrence phrases by verb lemma, each with the particles it takes ('' for
    none): `recap` asks about every token of a document."""
    parts: dict[str, set[str]] = {}
    for phrase in words()["occurrence"]:
        head, _, part = phrase.partition(" ")
        parts.setdefault(head, set()).add(part)
    return {head: frozenset(p) for head, p in parts.items()}


def _recap_verb(tok: Token) -> bool:
    """'took place', 'happened', 'were carried out': a verb that only says an act occurred."""
    parts = _occurrence().get(low(tok))
    if parts is None:
        return False
    return "" in parts or any(c.lower_ in parts for c in tok.children)


def _recap_subject(verb: Token) -> bool:
    """'these events', 'the killings', 'this', 'it all': a subject pointing back to told acts."""
    for subj in (c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")):
        if subj.lower_ in words()["recap_pronoun"]:
            return True
        dets = [c for c in subj.children if c.dep_ == "det"]
        if dets and all(d.lower_ in words()["recap_det"] for d in dets):
            return not any(c.dep_ in ("nummod", "appos", "relcl", "acl") for c in subj.children)
    return False


def recap(
    doc: Doc, dates: Sequence[DateRef], places: Sequence[PlaceRef]
) -> tuple[DateRef | None, PlaceRef | None]:
    """The date and place of a retrospective summary ('These events took place in X in
    February 2023'): they belong to the acts told around it that carry none of their own."""
    verbs = _occurrence()
    lemmas = lows(doc)
    for sent in doc.sents:
        if not any(
            lemmas[i] in verbs and _recap_verb(doc[i]) and _recap_subject(doc[i])
            for i in range(sent.start, sent.end)
        ):
            continue
        lo, hi = sent.start_char, sent.end_char
        ds = [d for d in dates if lo <= d.start < hi and d.date_start and event_date(doc, d)]
        ps = [p for p in places if lo <= p.start < hi and usable_place(doc, p)]
        date = min(ds, key=lambda d: (_DATE_PRECISION.get(d.precision, 4), d.start), default=None)
        place = min(ps, key=lambda p: (_PRECISION.get(p.precision, 4), p.start), default=None)
        if date is not None or place is not None:
            return date, place
    return None, None


def act_sentences(
    units: Sequence[Span], recalled: set[int]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Character ranges of the sentences that recall an earlier act and of those that
    tell one of the report's own (an act word, nothing recalled): what `choose_date`
    dates an act by, outside its own sentences."""
    others, told = [], []
    for u in units:
        if any(t.i in recalled for t in u):
            others.append((u.start_char, u.end_char))
        elif any(is_act(t) for t in u):
            told.append((u.start_char, u.end_char))
    return others, told


def choose_date(
    doc: Doc,
    dates: Sequence[DateRef],
    spans: Sequence[tuple[int, int]],
    paragraph: tuple[int, int],
    trigger: int,
    recap: DateRef | None = None,
    others: Sequence[tuple[int, int]] = (),
    told: Sequence[tuple[int, int]] = (),
) -> DateRef | None:
    """Most precise event date in the mention spans, else a recap sentence's date, else
    one in the paragraph, else the document's only event date in a sentence that tells an
    act (`told`), told before this one. Outside the mention spans, a date in a sentence
    that recalls another act (`others`: "In April 2022, a missile attack on the station
    killed 60") is that act's, and one in a sentence of no act ("In 2006, when the building
    collapsed, I was a student") dates the speaker's life, not this act."""
    ok = [d for d in dates if d.date_start and event_date(doc, d)]
    near = [d for d in ok if not any(lo <= d.start < hi for lo, hi in others)]
    acts = [d for d in near if any(lo <= d.start < hi for lo, hi in told)]
    told_in = [d for d in ok for s in spans if s[0] <= d.start and d.end <= s[1]]
    for pool in (
        [d for d in told_in if not _later_death(doc, d)] or told_in,
        [recap] if recap is not None else [],
        [d for d in near if paragraph[0] <= d.start and d.end <= paragraph[1]],
    ):
        if pool:
            return min(
                pool, key=lambda d: (_DATE_PRECISION.get(d.precision, 4), abs(d.start - trigger))
            )
    # a date told before the act may be that day's news carried on; one told only after
    # it is another act's ('In March, settlers burned six homes' past a shepherd's killing)
    before = [d for d in acts if d.start < trigger]
    if len({(d.date_start, d.date_end) for d in acts}) == 1 and before:
        return before[0]
    return None
