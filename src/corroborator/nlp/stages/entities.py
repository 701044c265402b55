"""Entities stage: people, armed groups, organisations, places and outlets, one kind per name.

spaCy's entities are the starting point, but the small model splits or mislabels the actors
that matter here ("Russian" NORP + "troops", "2nd Motor Rifle Division" as ORG), so armed
groups and outlets are found by token patterns first (lexicons/armed_groups.json,
lexicons/entities_outlets.json) and win over the spans they overlap. A second pass makes
the document consistent: one surface name gets one kind, and a bare surname gets the full
name seen elsewhere in the document as `canonical`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from spacy.matcher import Matcher
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from corroborator.models import EntityMention
from corroborator.nlp import lexicon as lexicons
from corroborator.nlp.columns import column
from corroborator.nlp.pipeline import DocContext, text_of

_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$")
_ORDINAL = r"^\d+(?:st|nd|rd|th)$"
_PLACE_LABELS = {"GPE", "LOC"}
_KIND_OF_LABEL = {"PERSON": "person", "ORG": "organization", "GPE": "place", "LOC": "place"}
_REPORT_SUBJ = {"nsubj", "nsubjpass"}
_DEMONYM = re.compile(r"(?:ian|ians|ese|ish|ean|eans)$")
_PATRONYMIC = re.compile(r"(?:ovich|evich|ovna|evna|ichna)$")
_NOT_NAMES = {"POW", "POWs", "PoW", "PoWs", "MIA", "KIA", "IDP", "IDPs"}
_STATE_WORDS = {"Republic", "Army", "Party", "Front", "Council", "Militia", "Union"}
# verbs whose object is a place when the gazetteer lists it as a town ('shelled Marhanets':
# the small model makes an unfamiliar town an organisation)
_PLACE_VERBS = {"shell", "bomb", "bombard", "strike", "hit", "attack", "pound", "raid", "storm"}
_PLACE_VERBS |= {"capture", "seize", "occupy", "liberate", "besiege", "encircle", "recapture"}
_TITLE_GROUP_NOUNS = {
    "group",
    "pmc",
    "battalion",
    "brigade",
    "legion",
    "militia",
    "regiment",
    "front",
}


def lexicon(name: str) -> dict[str, Any]:
    data: dict[str, Any] = lexicons.load_json(name)
    return data


@dataclass(frozen=True)
class _Mention:
    start: int  # token indices
    end: int
    kind: str
    label: str
    canonical: str = ""
    group_name: str = ""  # the proper-name part of an armed group ("Wagner")
    rule: str = ""  # the armed-group pattern that found it


def clean_bounds(span: Span) -> tuple[int, int]:
    """Token bounds without a leading article and a trailing possessive."""
    start, end = span.start, span.end
    doc = span.doc
    while start < end - 1 and doc[start].lower_ in {"the", "a", "an"}:
        start += 1
    while end > start + 1 and doc[end - 1].text in {"'s", "’s", "'", "’"}:
        end -= 1
    return start, end


def _unpadded(ent: Span) -> Span | None:
    """The entity without the line breaks and indents the model sometimes takes in at its
    edges ('Health\\n  '), or None when it is nothing else (a list item's indent as ORG)."""
    words = [t.i for t in ent if not t.is_space]
    if not words:
        return None
    if words[0] == ent.start and words[-1] == ent.end - 1:
        return ent
    return Span(ent.doc, words[0], words[-1] + 1, label=ent.label_)


def surface(doc: Doc, start: int, end: int) -> tuple[int, int, str]:
    """Character offsets and text of tokens [start, end), minus a glued possessive."""
    span = doc[start:end]
    text = span.text
    m = _POSSESSIVE.search(text)
    if m and end - start >= 1 and not text.endswith(("ss'", "ss’")) and len(text) > 3:
        cut = 2 if m.group(0)[0] in "'’" else 1
        text = text[:-cut]
    return span.start_char, span.start_char + len(text), text


@lru_cache(maxsize=4)
def _group_matcher(vocab: Vocab) -> Matcher:
    lex = lexicon("armed_groups.json")
    forces, mods = lex["force_nouns"], lex["force_modifiers"]
    gmods, gnouns = lex["group_modifiers"], lex["group_nouns"]
    mod = {"LOWER": {"IN": mods}, "OP": "*"}
    force = {"LOWER": {"IN": forces}}
    poss = {"ORTH": {"IN": ["'s", "’s"]}}
    m = Matcher(vocab)
    m.add("NORP_FORCE", [[{"ENT_TYPE": {"IN": ["NORP", "GPE"]}, "OP": "+"}, mod, force]])
    m.add("POSS_FORCE", [[{"POS": "PROPN"}, poss, mod, force]])
    m.add(
        "NAME_FORCE", [[{"POS": "PROPN", "ENT_TYPE": {"NOT_IN": ["PERSON", "NORP"]}}, mod, force]]
    )
    title_force = {"LOWER": {"IN": forces}, "IS_TITLE": True}
    m.add("TITLE_FORCE", [[{"IS_TITLE": True, "POS": "PROPN", "OP": "+"}, title_force]])
    m.add(
        "ARMED_FORCES_OF",
        [[{"LOWER": "armed"}, {"LOWER": "forces"}, {"LOWER": "of"}, {"POS": "PROPN", "OP": "+"}]],
    )
    m.add(
        "UNIT",
        [
            [
                {"TEXT": {"REGEX": _ORDINAL}},
                {"IS_TITLE": True, "OP": "*"},
                {"LOWER": {"IN": lex["unit_nouns"]}},
            ]
        ],
    )
    m.add(
        "NAMED_GROUP",
        [
            [
                {"POS": "PROPN", "IS_TITLE": True, "OP": "+"},
                {"LOWER": {"IN": sorted(_TITLE_GROUP_NOUNS)}},
            ],
            [
                {"IS_TITLE": True, "ENT_TYPE": {"NOT_IN": ["NORP", "GPE"]}, "OP": "+"},
                {"LOWER": {"IN": gmods}, "OP": "+"},
                {"LOWER": {"IN": gnouns}},
            ],
            [{"LOWER": "pmc"}, {"POS": "PROPN", "IS_TITLE": True, "OP": "+"}],
        ],
    )
    m.add("STANDALONE", [[{"ENT_TYPE": "NORP", "OP": "*"}, {"LOWER": {"IN": lex["standalone"]}}]])
    return m


def _is_modifier(doc: Doc, i: int) -> bool:
    """'military' in 'military technician': a force word modifying another noun, not a group."""
    tok = doc[i]
    nxt = doc[i + 1] if i + 1 < len(doc) else None
    forces = set(lexicon("armed_groups.json")["force_nouns"])
    return (
        nxt is not None
        and nxt.pos_ in {"NOUN", "PROPN"}
        and nxt.lower_ not in forces
        and tok.dep_ in {"amod", "compound", "nmod"}
    )


def armed_groups(doc: Doc) -> list[_Mention]:
    """Longest non-overlapping armed-group phrases, each with a canonical name."""
    org_words = set(lexicon("armed_groups.json")["org_words"])
    found: list[tuple[int, int, str]] = []
    for match_id, start, end in _group_matcher(doc.vocab)(doc):
        rule = doc.vocab.strings[match_id]
        if rule in {"NORP_FORCE", "POSS_FORCE", "NAME_FORCE", "TITLE_FORCE"} and _is_modifier(
            doc, end - 1
        ):
            continue
        words = {t.lower_ for t in doc[start:end]}
        if rule == "NAMED_GROUP" and words & (
            org_words - {"company", "organisation", "organization"}
        ):
            continue
        found.append((start, end, rule))
    found.sort(key=lambda x: (-(x[1] - x[0]), x[0]))
    taken: set[int] = set()
    out: list[_Mention] = []
    for start, end, rule in found:
        if taken & set(range(start, end)):
            continue
        taken.update(range(start, end))
        s, e = clean_bounds(doc[start:end])
        name = ""
        canonical = surface(doc, s, e)[2]
        if rule == "NAMED_GROUP":
            toks = [t for t in doc[s:e] if t.is_title and t.lower_ not in _TITLE_GROUP_NOUNS]
            toks = [t for t in toks if t.lower_ != "pmc"] or toks
            name = " ".join(t.text for t in toks)
            last = doc[e - 1].lower_
            if last in {"group", "organisation", "organization", "company", "pmc"} or (
                doc[s].lower_ == "pmc"
            ):
                canonical = f"{name} Group"
        out.append(_Mention(s, e, "armed_group", "", canonical, name, rule))
    return sorted(out, key=lambda m: m.start)


def _is_outlet_word(tok: Any) -> bool:
    if not tok.text[:1].isupper():
        return False
    lex = lexicon("entities_outlets.json")
    low = tok.lower_
    if low in lex["agencies"] or low in lex["name_words"]:
        return True
    return any(low.endswith(s) and len(low) > len(s) + 2 for s in lex["name_suffixes"])


def outlets(doc: Doc) -> list[_Mention]:
    """News organisations: agency names, '-news' compounds, capitalised names ending in
    a masthead word ("The New York Times", "The Guardian"), and ORGs that report/publish."""
    lex = lexicon("entities_outlets.json")
    agencies, verbs = set(lex["agencies"]), set(lex["report_verbs"])
    out: list[_Mention] = []
    texts, tags = column(doc, "text"), column(doc, "tag_")
    i = 0
    while i < len(doc):
        if tags[i] not in {"NNP", "NNPS"} or not texts[i][:1].isupper():
            i += 1  # no outlet word: tested on the columns, no Token built
            continue
        tok = doc[i]
        if not _is_outlet_word(tok):
            i += 1
            continue
        start = i
        while start > 0 and doc[start - 1].tag_ in {"NNP", "NNPS"} and doc[start - 1].is_title:
            start -= 1
        end = i + 1
        while end < len(doc) and _is_outlet_word(doc[end]) and doc[end].tag_ == "NNP":
            end += 1
        low = tok.lower_
        strong = (
            low in agencies
            or end - start > 1
            or (start > 0 and doc[start - 1].lower_ == "the")
            or low not in lex["name_words"]
        )
        if strong:
            out.append(_Mention(start, end, "outlet", "ORG"))
        i = end
    taken = {j for m in out for j in range(m.start, m.end)}
    for ent in doc.ents:
        if ent.label_ != "ORG" or taken & set(range(ent.start, ent.end)):
            continue
        head = ent.root
        if head.dep_ in _REPORT_SUBJ and head.head.lower_ in verbs:
            s, e = clean_bounds(ent)
            out.append(_Mention(s, e, "outlet", "ORG"))
    return out


def _trim_org(doc: Doc, start: int, end: int) -> int:
    """End of an ORG before a stray prepositional tail ("Security Service on Facebook")."""
    for j in range(start + 1, end):
        if doc[j].pos_ == "ADP" and doc[j].lower_ not in {"of", "for", "de", "du", "&"}:
            return j
    return end


def _classify(doc: Doc, ent: Span) -> _Mention | None:
    label = ent.label_
    if label not in _KIND_OF_LABEL:
        return None
    s, e = clean_bounds(ent)
    if label == "ORG":
        e = _trim_org(doc, s, e)
        if _town_taken(doc[s:e]):
            label = "GPE"
    if e + 1 < len(doc) and doc[e].text in {"'s", "’s"} and doc[e + 1].text in _STATE_WORDS:
        e, label = e + 2, "ORG"  # "X People's Republic": one organisation, not a person + place
    text = doc[s:e].text
    if text in _NOT_NAMES:
        return None
    if label == "ORG" and 2 <= e - s <= 4 and any(_PATRONYMIC.search(t.text) for t in doc[s:e]):
        return _Mention(s, e, "person", label)
    if label in _PLACE_LABELS and _DEMONYM.search(text):
        from corroborator.nlp import gazetteer

        if not gazetteer.load().candidates(text):
            return None
    return _Mention(s, e, _KIND_OF_LABEL[label], label)


def _town_taken(span: Span) -> bool:
    """'Russian troops shelled Marhanets': an 'organisation' that is what an attack verb
    hit, seized or besieged, and that the gazetteer lists as a town only, is the town."""
    from corroborator.nlp import gazetteer

    root = span.root
    if root.dep_ != "dobj" or root.head.lemma_.lower() not in _PLACE_VERBS:
        return False
    kinds = {p.kind for p in gazetteer.load().candidates(span.text)}
    return kinds == {"city"}


def _has_org_word(text: str) -> bool:
    words = set(lexicon("armed_groups.json")["org_words"])
    return any(w.lower() in words for w in re.findall(r"[\w.]+", text))


def _bare_names(doc: Doc, found: list[_Mention], taken: set[int]) -> list[_Mention]:
    """Capitalised tokens that spaCy left untagged but that repeat a surname or group name
    found elsewhere in the document ('"We are moving," Prigozhin said')."""
    names = {m.group_name for m in found if m.group_name}
    names |= {doc[m.end - 1].text for m in found if m.kind == "person" and m.end - m.start >= 2}
    return [
        _Mention(i, i + 1, "person", "")
        for i, text in enumerate(column(doc, "text"))
        if i not in taken and text in names and doc[i].is_title and doc[i].pos_ in {"PROPN", "ADJ"}
    ]


_NATIONAL_RULES = {"NORP_FORCE", "POSS_FORCE", "NAME_FORCE", "ARMED_FORCES_OF", "TITLE_FORCE"}
_NATIONAL_RULES |= {"NAMED_GROUP"}
_DEMONYM_ENDINGS = ("", "n", "an", "ian", "ean", "ese", "i", "ish", "ite")


@lru_cache(maxsize=1)
def _country_table() -> tuple[dict[str, str], dict[str, str]]:
    """(lower-case country name or alias -> name, ISO2 -> name) from the gazetteer lexicon."""
    by_name: dict[str, str] = {}
    by_iso: dict[str, str] = {}
    for line in lexicons.text("gazetteer_countries.tsv").splitlines():
        if not line or line.startswith("#"):
            continue
        iso, _, name, aliases = (line.split("\t") + [""])[:4]
        by_iso[iso] = name
        for n in [name, *aliases.split("|")]:
            if n and len(n) > 3:
                by_name.setdefault(n.lower(), name)
    return by_name, by_iso


@lru_cache(maxsize=1)
def _demonyms() -> dict[str, str]:
    return {r[0]: r[1] for r in lexicons.rows("entities_demonyms.tsv") if len(r) == 2}


@lru_cache(maxsize=1024)
def country_of(word: str) -> str | None:
    """Country named by a country name or nationality adjective ("Malian" -> "Mali")."""
    by_name, by_iso = _country_table()
    w = _POSSESSIVE.sub("", word).lower().strip()
    if w in _demonyms():
        return by_iso.get(_demonyms()[w])
    if w in by_name:
        return by_name[w]
    best: tuple[int, str] | None = None
    for name in set(by_name.values()):
        n = name.lower()
        if " " in n or len(n) < 4:
            continue
        stem = n[:-1] if n[-1] in "aey" else n
        fits = w.startswith(stem) and w[len(stem) :] in _DEMONYM_ENDINGS
        fits = fits or (n.endswith("stan") and n.startswith(w) and len(w) >= 4)
        if fits and (best is None or len(stem) > best[0]):
            best = (len(stem), name)
    return best[1] if best else None


def _national_canonical(doc: Doc, m: _Mention) -> str | None:
    """One name for a country's regular forces however they are called ("Eritrean troops",
    "Eritrean Defence Forces", "Mali's armed forces"): "Armed Forces of <country>"."""
    if m.rule not in _NATIONAL_RULES:
        return None
    generic = set(lexicon("armed_groups.json")["national_force_words"])
    rest = [t.text for t in doc[m.start : m.end] if t.lower_ not in generic]
    if not rest or len(rest) > 3:
        return None
    country = country_of(" ".join(rest))
    return f"Armed Forces of {country}" if country else None


def _bracketed(doc: Doc, i: int) -> tuple[int, int] | None:
    """Token bounds of "(X)" or "(the X)" opening at token i: X capitalised, 1-4 words."""
    s = i + 1 + (i + 1 < len(doc) and doc[i + 1].lower_ == "the")
    e = s
    while e < min(len(doc), s + 4) and (doc[e].is_title or doc[e].is_upper) and doc[e].is_alpha:
        e += 1
    return (s, e) if s < e < len(doc) and doc[e].text == ")" else None


def _acronyms(
    doc: Doc, rows: list[tuple[_Mention, tuple[int, int, str]]]
) -> tuple[dict[str, _Mention], list[tuple[_Mention, tuple[int, int, str]]]]:
    """ "Rapid Support Forces (RSF)", "Myanmar's military (the Tatmadaw)": a bracketed name
    right after a group or organisation is another name for it (an acronym must share its
    first letter or initials). Capitals that spell the initials of a group named in the
    document are its acronym even without brackets. Returns the aliases and the names
    spaCy missed ("Ukraine's Security Service (SBU)")."""
    ends = {m.end: m for m, _ in rows}
    forces = set(lexicon("armed_groups.json")["force_nouns"])
    out: dict[str, _Mention] = {}
    added: list[tuple[_Mention, tuple[int, int, str]]] = []
    texts = column(doc, "text")
    for i in range(1, len(doc) - 2):
        bounds = _bracketed(doc, i) if texts[i] == "(" else None
        if bounds is None:
            continue
        tok = doc[i]
        alias = doc[bounds[0] : bounds[1]].text
        acr = alias.isalpha() and alias.isupper() and 2 <= len(alias) <= 6
        m = ends.get(tok.i)
        if m is None and acr:  # a title-case run right before the bracket
            s = tok.i
            while s > max(0, tok.i - 6) and doc[s - 1].is_title and doc[s - 1].pos_ == "PROPN":
                s -= 1
            if s == tok.i or doc[s : tok.i].ents and doc[s].ent_type_ in {"PERSON", "GPE"}:
                continue
            kind = "armed_group" if doc[tok.i - 1].lower_ in forces else "organization"
            m = _Mention(s, tok.i, kind, "ORG")
            added.append((m, surface(doc, s, tok.i)))
        if m is None or m.kind not in {"armed_group", "organization"}:
            continue
        text = doc[m.start : m.end].text
        initials = "".join(w[0] for w in text.split() if w[:1].isupper())
        if not acr and doc[bounds[0]].ent_type_ in _PLACE_LABELS:
            continue  # "the ministry (Damascus)": a place, not a second name
        if not acr or alias[0] == text[:1] or alias == initials:
            out[alias] = replace(m, canonical=m.canonical or text)
    spelled: dict[str, dict[str, _Mention]] = {}
    for m, (_, _, text) in rows:  # "Rapid Support Forces" ... "the RSF"
        words = text.split()
        if m.kind in {"armed_group", "organization"} and len(words) >= 2:
            initials = "".join(w[0] for w in words if w[:1].isupper())
            canonical = m.canonical or text
            spelled.setdefault(initials, {})[canonical] = replace(m, canonical=canonical)
    tokens = set(texts)
    for initials, named in spelled.items():
        if len(initials) >= 2 and initials not in out and initials in tokens and len(named) == 1:
            out[initials] = next(iter(named.values()))
    return out, added


_KNOWN_ADVERBS = {"also", "widely", "better", "commonly", "popularly", "locally", "simply"}
_KNOWN_ADVERBS |= {"more", "generally", "often", "sometimes", "informally", "affectionately"}


def _known_as(doc: Doc, rows: list[tuple[_Mention, tuple[int, int, str]]]) -> dict[str, _Mention]:
    """ "Mohamed Ali, widely known as Abu Ali", "the rescue group known as the Blue Caps":
    the capitalised name after "known as" is another name of the nearest entity before it
    in the clause (only commas, adverbs and a lower-case description between them)."""
    out: dict[str, _Mention] = {}
    lowers = column(doc, "lower_")
    for i in range(1, len(doc) - 2):
        if lowers[i] != "known":
            continue
        tok = doc[i]
        j = tok.i + 1
        while j < len(doc) and doc[j].lower_ in _KNOWN_ADVERBS:
            j += 1
        if j >= len(doc) - 1 or doc[j].lower_ != "as":
            continue
        s = j + 1 + (doc[j + 1].lower_ == "the")
        s += s < len(doc) and doc[s].text in {'"', "“", "‘", "'"}
        e = s
        while e < min(len(doc), s + 4) and doc[e].text[:1].isupper() and doc[e].is_alpha:
            e += 1
        before = [m for m, _ in rows if m.end <= tok.i and m.kind != "outlet"]
        if e == s or not before:
            continue
        anchor = before[-1]
        gap = doc[anchor.end : tok.i]
        if len(gap) > 7 or any(
            t.pos_ in {"VERB", "AUX", "PROPN"} or (t.is_punct and t.text != ",") for t in gap
        ):
            continue
        surf = surface(doc, anchor.start, anchor.end)[2]
        out[doc[s:e].text] = replace(anchor, canonical=anchor.canonical or surf)
    return out


def resolve(doc: Doc) -> list[EntityMention]:
    """All entity mentions of the document, consistent in kind and canonical name."""
    groups = armed_groups(doc)
    taken = {j for m in groups for j in range(m.start, m.end)}
    found = list(groups)
    for m in outlets(doc):
        if not taken & set(range(m.start, m.end)):
            found.append(m)
            taken.update(range(m.start, m.end))
    for ent in map(_unpadded, doc.ents):
        if ent is None or taken & set(range(ent.start, ent.end)):
            continue
        cm = _classify(doc, ent)
        if cm is not None and not taken & set(range(cm.start, cm.end)):
            found.append(cm)
            taken.update(range(cm.start, cm.end))
    found.sort(key=lambda m: m.start)
    found += _bare_names(doc, found, taken)
    found.sort(key=lambda m: m.start)
    rows = [(m, surface(doc, m.start, m.end)) for m in found]

    # names: armed groups by proper name, people by surname
    group_names = {m.group_name: m.canonical for m in found if m.group_name}
    single = {text for m, (_, _, text) in rows if len(text.split()) == 1}
    single_people = {t for m, (_, _, t) in rows if m.kind == "person" and len(t.split()) == 1}
    people: list[str] = []
    for m, (_, _, text) in rows:
        n = len(text.split())
        if n < 2 or n > 4 or _has_org_word(text):
            continue
        if (
            m.kind == "person"
            or (m.kind == "organization" and m.label == "ORG" and text.split()[-1] in single)
            or (m.kind == "organization" and n <= 3 and text.split()[0] in single_people)
        ):
            people.append(text)
    surnames: dict[str, str] = {}
    for full in people:
        surnames.setdefault(full.split()[-1], full)
    given: dict[str, set[str]] = {}  # "Amina" after "Amina Yusuf": features use first names
    for full in people:
        given.setdefault(full.split()[0], set()).add(full)
    for first, fulls in given.items():
        if first in single_people and first not in surnames and len(fulls) == 1:
            surnames[first] = next(iter(fulls))

    fixed: list[tuple[_Mention, tuple[int, int, str]]] = []
    for m, (a, b, text) in rows:
        if m.kind in {"armed_group", "outlet"}:
            first = doc[m.start].text
            if m.kind == "armed_group" and not m.group_name and first in group_names:
                m = replace(m, canonical=group_names[first])
            fixed.append((m, (a, b, text)))
            continue
        words = text.split()  # empty when the mention is all marks or spaces
        if text in group_names or words and words[0] in group_names and m.kind != "place":
            key = text if text in group_names else words[0]
            m = replace(m, kind="armed_group", canonical=group_names[key])
        elif text in people or text in surnames:
            m = replace(m, kind="person", canonical=surnames.get(text, text))
        fixed.append((m, (a, b, text)))

    fixed = _acronym_led(doc, _unify_forces(doc, fixed, taken))

    votes: dict[str, Counter[str]] = {}
    for m, (_, _, text) in fixed:
        votes.setdefault(text, Counter())[m.kind] += 1 + _located(doc, m)
    order = ("armed_group", "outlet", "person", "organization", "place")
    kind_of = {
        text: max(c, key=lambda k: (c[k] + (100 if k in order[:2] else 0), -order.index(k)))
        for text, c in votes.items()
    }
    out: list[EntityMention] = []
    for m, (a, b, text) in fixed:
        kind = kind_of[text]
        canonical = m.canonical or (surnames.get(text, text) if kind == "person" else text)
        out.append(EntityMention(a, b, text, kind, m.label, canonical))
    return out


_LOCATIVE = frozenset(("in", "near", "outside", "around", "at", "from", "into", "towards"))


def _located(doc: Doc, m: _Mention) -> int:
    """A place reading after a preposition of place counts twice when a name's mentions
    vote on its kind ('fields outside Lulingu' against 'the Lulingu health post')."""
    return int(m.kind == "place" and m.start > 0 and doc[m.start - 1].lower_ in _LOCATIVE)


def _unify_forces(
    doc: Doc, rows: list[tuple[_Mention, tuple[int, int, str]]], taken: set[int]
) -> list[tuple[_Mention, tuple[int, int, str]]]:
    """National forces get one canonical per country; an acronym in brackets (and its
    later bare uses) takes the canonical name and kind of the name it abbreviates."""
    out = []
    for m, surf in rows:
        if m.kind == "armed_group" and (name := _national_canonical(doc, m)):
            m = replace(m, canonical=name)
        out.append((m, surf))
    acronyms, added = _acronyms(doc, out)
    for alias, m in _known_as(doc, out).items():
        acronyms.setdefault(alias, m)
    if not acronyms:
        return out
    names = {a.canonical for a in acronyms.values()}
    out += [(replace(m, canonical=t), (a, b, t)) for m, (a, b, t) in added if t in names]
    out = [
        (replace(m, kind=acronyms[t].kind, canonical=acronyms[t].canonical), (a, b, t))
        if t in acronyms
        else (m, (a, b, t))
        for m, (a, b, t) in out
    ]
    out = [  # "the SDF's fighters", "SDF fighters" are the SDF
        (replace(m, canonical=acronyms[first].canonical), surf)
        if m.kind == "armed_group" and (first := doc[m.start].text) in acronyms
        else (m, surf)
        for m, surf in out
    ]
    covered = {i for _, (a, b, _) in out for i in range(a, b)}
    for alias, src in acronyms.items():  # later bare uses the NER missed
        for hit in re.finditer(rf"(?<![\w-]){re.escape(alias)}(?![\w-])", text_of(doc)):
            a, b = hit.span()
            span = doc.char_span(a, b)
            if span is None or covered & set(range(a, b)):
                continue
            covered.update(range(a, b))
            bare = _Mention(span.start, span.end, src.kind, "", src.canonical)
            out.append((bare, (a, b, alias)))
    return sorted(out, key=lambda r: r[1][0])


def _acronym_led(
    doc: Doc, rows: list[tuple[_Mention, tuple[int, int, str]]]
) -> list[tuple[_Mention, tuple[int, int, str]]]:
    """ "RSF fighters" with no expansion in the document: the group is the acronym's, and the
    bare acronym elsewhere names that armed group too (not an organisation)."""
    forces = set(lexicon("armed_groups.json")["force_nouns"])
    mods = set(lexicon("armed_groups.json")["force_modifiers"])
    led: dict[str, str] = {}
    for m, _ in rows:
        first = doc[m.start].text
        rest = {t.lower_ for t in doc[m.start + 1 : m.end]}
        acr = first.isalpha() and first.isupper() and 2 <= len(first) <= 6
        if m.kind == "armed_group" and acr and rest and rest <= forces | mods:
            led[first] = m.canonical if m.canonical != surface(doc, m.start, m.end)[2] else first
    if not led:
        return rows
    return [
        (replace(m, kind="armed_group", canonical=led[doc[m.start].text]), surf)
        if doc[m.start].text in led and (m.kind == "armed_group" or surf[2] in led)
        else (m, surf)
        for m, surf in rows
    ]


class EntitiesStage:
    """Appends EntityMention records (see `resolve`)."""

    name = "corroborator.entities.v1"

    def __call__(self, ctx: DocContext) -> None:
        ctx.extraction.entities.extend(resolve(ctx.doc))
