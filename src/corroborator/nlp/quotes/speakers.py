"""Who may speak: people and bodies mentioned outside quotes, resolved to referents.

Pronouns and definite descriptions ("he", "the POW") resolve by salience (recency,
subjecthood), in the manner of Lappin and Leass; surnames resolve to the fullest form of the
name in the document. Descriptions stay descriptions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from spacy.attrs import IS_ALPHA, SENT_START
from spacy.tokens import Doc, Span, Token

from corroborator.nlp.columns import column, lows
from corroborator.nlp.pipeline import text_of
from corroborator.nlp.quotes.lexicon import (
    DETERMINERS,
    DROP_WORDS,
    GENERIC_HEADS,
    NEW_MARKERS,
    PARTITIVES,
    PERSONAL,
    POSSESSIVES,
    PRONOUNS,
    SUBJECTS,
    Lexicon,
    PersonNoun,
    is_cue,
    lexicon,
)
from corroborator.nlp.quotes.marks import paragraphs

MAX_BACK = 6  # sentences a pronoun may look back
CAPTURED = {"capture", "detain", "arrest", "hold"}
SELF_NAMING = {"introduce", "call", "identify", "give", "name"}


@dataclass(eq=False)
class Referent:
    """One person or body that may speak, with what the text says about them."""

    canonical: str
    span: tuple[int, int] | None
    kind: str  # name | desc | org
    plural: bool = False
    gender: str = "-"
    heads: set[str] = field(default_factory=set)
    mentions: list[Mention] = field(default_factory=list)
    roles: set[str] = field(default_factory=set)  # role hints from the narrative
    group: Referent | None = None  # the group a "one of them" belongs to
    confesses: bool = False
    harmed: bool = False
    denies: bool = False
    narrates: bool = False  # quoted in the first person about what happened
    ages: set[str] = field(default_factory=set)  # "Ivan Petrov, 22," -> "the 22-year-old"


@dataclass(eq=False)
class Mention:
    token: int
    sent: int
    weight: float
    referent: Referent


def _name_words(text: str) -> list[str]:
    from unidecode import unidecode

    return re.findall(r"[^\W\d_]+", unidecode(text).lower())


def _surname_key(text: str) -> str:
    words = _name_words(text)
    return words[-1] if words else text.lower()


def _full_key(text: str) -> str | None:
    """A name of two words or more, folded; None for a surname alone."""
    words = _name_words(text)
    return " ".join(words) if len(words) > 1 else None


def _namesakes(known: str, new: str) -> bool:
    """Two full names that share the surname and not the first name: relatives, not one
    person ('V. Hrytsenko' may be 'Valentyna Hrytsenko')."""
    a, b = _full_key(known), _full_key(new)
    if a is None or b is None:
        return False
    first_a, first_b = a.split()[0], b.split()[0]
    return not (first_a.startswith(first_b) or first_b.startswith(first_a))


def _strip_possessive(span: Span) -> tuple[int, int]:
    start, end = span.start_char, span.end_char
    text = span.text
    for suffix in ("’s", "'s", "’", "'"):
        if text.endswith(suffix):
            return start, end - len(suffix)
    return start, end


class Discourse:
    """People mentioned outside quotes, resolved to referents in document order."""

    def __init__(self, doc: Doc, inside: list[bool], known: dict[int, str]) -> None:
        self.doc = doc
        self.inside = inside
        self.lex = lexicon()
        self.known = known  # token index -> canonical name from the entities stage
        # person nouns: the lexicon's, plus those the text introduces a name with
        # ("Svitlana Horobets, a bookkeeper": "the bookkeeper" is a person here)
        self.persons: dict[str, PersonNoun] = dict(self.lex.persons)
        self.sent_of = self._sentence_index()
        self.caption = self._caption_mask()
        self.by_token: dict[int, Mention] = {}
        self.mentions: list[Mention] = []
        self.names: dict[str, Referent] = {}
        self.people: dict[str, Referent] = {}  # full name -> its person (namesakes apart)
        self.referents: list[Referent] = []
        self.full_names = self._full_names()
        self._build()

    def _sentence_index(self) -> list[int]:
        """Narrative sentence number of each token; a line break always ends a sentence."""
        index = [0] * len(self.doc)
        starts = self.doc.to_array(SENT_START).tolist()
        alpha = self.doc.to_array(IS_ALPHA).tolist()
        texts = column(self.doc, "text")  # a line break is a token, never trailing space
        n = -1
        started = False
        for i in range(len(index)):
            if starts[i] == 1 or i == 0 or "\n" in texts[i - 1]:
                started = False
            if not started and not self.inside[i] and alpha[i]:
                n += 1
                started = True
            index[i] = max(n, 0)
        return index

    def _caption_mask(self) -> list[bool]:
        """Tokens of lines that do not end like a sentence: photo captions and headlines,
        which news pages interleave with the story and which rarely hold its speakers."""
        mask = [False] * len(self.doc)
        for lo, hi in paragraphs(text_of(self.doc)):
            line = text_of(self.doc)[lo:hi].rstrip()
            if line and line[-1] not in '.!?"”’…:)':
                span = self.doc.char_span(lo, hi, alignment_mode="expand")
                if span is not None:
                    mask[span.start : span.end] = [True] * len(span)
        return mask

    # -- building ------------------------------------------------------------------
    def _build(self) -> None:
        person_ents = self._person_spans()
        lowers, deps = column(self.doc, "lower_"), column(self.doc, "dep_")
        for i in range(len(self.doc)):
            if self.inside[i] or i in self.by_token:
                continue
            if not (
                i in person_ents
                or deps[i] in SUBJECTS
                or lowers[i] in POSSESSIVES
                or self._person_noun_at(i)
            ):
                continue  # none of the tests below can pass: no Token built
            tok = self.doc[i]
            ent = person_ents.get(tok.i)
            if ent is not None:
                if tok.i == ent.start:
                    self._add_name(ent)
            elif tok.lower_ in PRONOUNS and tok.dep_ in SUBJECTS:
                self._add_pronoun(tok)
            elif tok.lower_ in POSSESSIVES and tok.dep_ == "poss":
                self._add_pronoun(tok, POSSESSIVES[tok.lower_])
            elif self._is_person_noun(tok) and not self._titles_a_name(tok, person_ents):
                self._add_description(tok)
            elif tok.dep_ in SUBJECTS and _age_of(tok) is not None:
                self._add_age(tok)

    def _person_spans(self) -> dict[int, Span]:
        """PERSON entities, plus proper names the small model mislabels but the syntax
        shows to be people: subjects of cue verbs, "a soldier named X", "X, a researcher"."""
        spans = {t.i: ent for ent in self.doc.ents if ent.label_ == "PERSON" for t in ent}
        pos = column(self.doc, "pos_")
        for i in range(len(self.doc)):
            if i in spans or self.inside[i] or pos[i] != "PROPN":
                continue
            tok = self.doc[i]
            if self._comma_appos(tok):
                spans[tok.i] = tok.doc[tok.i : tok.i + 1]
                continue
            introduced = (
                tok.dep_ != "compound"
                and any(
                    c.dep_ == "appos" and self._is_person_noun(c) and 3 <= c.i - tok.i <= 9
                    for c in tok.children
                )
                and tok.doc[tok.i + 1].text == ","  # "X, a 51-year-old bookkeeper, ..."
                or (
                    tok.dep_ == "appos"
                    and tok.head.i == tok.i - 1
                    and self._is_person_noun(tok.head)
                )
            )
            # "Pavlo Shevchuk, a tractor driver", "his daughter Yulia": a person, whatever
            # the tagger says
            if introduced and tok.ent_type_ in ("", "PERSON", "GPE", "LOC", "ORG"):
                chunk = _name_chunk(tok)
                for t in chunk:
                    spans[t.i] = chunk
                continue
            if tok.dep_ == "compound" or tok.ent_type_ in ("GPE", "LOC", "DATE", "NORP"):
                continue
            if tok.lemma_.lower() in self.persons:
                continue  # "the POW", a description
            if self._looks_like_person(tok, spans):
                chunk = _name_chunk(tok)
                for t in chunk:
                    spans[t.i] = chunk
        return spans

    def _comma_appos(self, tok: Token) -> bool:
        """ "her cousin, Hagos, who ...": the name after a person noun is that person (the
        model may call it a place; the relative "who" settles it)."""
        before = tok.doc[tok.i - 2] if tok.i > 1 else None
        if before is None or not self._is_person_noun(before) or _comma_name(before) != tok:
            return False
        nxt = tok.doc[tok.i + 1 : tok.i + 3]
        who = len(nxt) == 2 and nxt[1].lower_ == "who"
        return tok.ent_type_ in ("", "PERSON") or who

    def _looks_like_person(self, tok: Token, spans: dict[int, Span]) -> bool:
        subj = tok.head if tok.dep_ == "conj" and tok.head.dep_ in SUBJECTS else tok
        captured = subj.dep_ == "nsubjpass" and subj.head.lemma_.lower() in CAPTURED
        if captured and tok.ent_type_ in ("", "PERSON", "ORG") and len(_name_chunk(tok)) >= 2:
            return True  # "Danil Orlov was captured", whatever the tagger calls him
        if subj.dep_ == "nsubj" and is_cue(subj.head, self.lex):
            if tok.ent_type_ in ("", "PERSON"):
                return True
            # a name the model calls ORG, followed by "his"/"her": a person after all
            if any(t.lower_ in PERSONAL for t in subj.head.subtree if t.i > tok.i):
                return True
        if any(c.dep_ == "appos" and self._is_person_noun(c) for c in tok.children):
            return True
        if (
            tok.dep_ == "appos"
            and self._is_person_noun(tok.head)
            and tok.ent_type_ in ("", "PERSON")
        ):
            return True  # "her cousin, Hagos,": the cousin is the name
        if any(c.dep_ == "compound" and c.lemma_.lower() in self.persons for c in tok.children):
            return True
        return any(self._is_person_noun(n) and _named_by(n) == tok for n in tok.ancestors)

    def _is_person_noun(self, tok: Token) -> bool:
        return self._person_noun_at(tok.i)

    def _person_noun_at(self, i: int) -> bool:
        return (
            column(self.doc, "pos_")[i] in ("NOUN", "PROPN")
            and lows(self.doc)[i] in self.persons
            and column(self.doc, "dep_")[i] != "compound"
        )

    def _titles_a_name(self, tok: Token, person_ents: dict[int, Span]) -> bool:
        """ "a soldier by the name of Sergey", "Weir, researcher at ...": the noun describes a name."""
        name = _named_by(tok) or _comma_name(tok)
        if name is None and tok.dep_ == "conj" and tok.head.dep_ == "appos":
            tok_head = tok.head.head  # "Weir, crisis and conflict researcher at ..."
            name = tok_head if tok_head.i in person_ents else None
        if name is None and tok.dep_ == "appos" and tok.head.i in person_ents:
            name = tok.head
        if name is None or name.i not in person_ents:
            return False
        ref = self._name_referent(person_ents[name.i])
        ref.heads |= _heads(tok, self.lex)
        self._mention(tok, ref)
        return True

    def _weight(self, tok: Token) -> float:
        """Lappin and Leass's weights: recency 100, subject 80, object 50, head noun 80,
        non-adverbial 50; words inside reported speech count half, captions a quarter."""
        dep = tok.dep_
        if dep == "conj" and tok.head.dep_ in SUBJECTS:
            dep = tok.head.dep_
        weight = 100.0
        if dep in SUBJECTS:
            weight += 80 + 80 + 50
        elif dep in ("dobj", "appos", "attr", "dative"):
            weight += 50 + 80 + 50
        elif dep != "pobj" or tok.head.head.pos_ not in ("VERB", "AUX"):
            weight += 50
        if self.caption[tok.i]:
            weight /= 4
        return weight / 2 if _in_reported_clause(tok, self.lex.cues) else weight

    def _mention(self, tok: Token, ref: Referent) -> Mention:
        m = Mention(tok.i, self.sent_of[tok.i], self._weight(tok), ref)
        ref.mentions.append(m)
        self.mentions.append(m)
        self.by_token[tok.i] = m
        return m

    def _full_names(self) -> dict[str, tuple[int, int]]:
        """Surname key -> offsets of the first two-to-three-word proper name ending in it
        outside quotes ("Yaroslav Petryk came back ..." before "Petryk said")."""
        found: dict[str, tuple[int, int]] = {}
        pos, deps = column(self.doc, "pos_"), column(self.doc, "dep_")
        for i in range(len(self.doc)):
            if pos[i] != "PROPN" or deps[i] == "compound" or self.inside[i]:
                continue
            tok = self.doc[i]
            chunk = list(_name_chunk(tok))
            while chunk and (chunk[0].text.endswith(".") or chunk[0].lower_ in self.persons):
                chunk.pop(0)  # "Gov. Anna Kirsch", "President X Y": the title is no name
            if not 2 <= len(chunk) <= 3 or not all(t.text[:1].isupper() for t in chunk):
                continue
            if tok.ent_type_ in ("GPE", "LOC", "NORP", "FAC", "DATE"):
                continue
            span = (chunk[0].idx, tok.idx + len(tok.text))
            found.setdefault(_surname_key(tok.text), span)
        return found

    def _name_referent(self, ent: Span) -> Referent:
        start, end = _strip_possessive(ent)
        text = text_of(self.doc)[start:end]
        if len(text.split()) == 1 and ent.start not in self.known:
            full = self.full_names.get(_surname_key(text))
            if full is not None and full[0] < start:
                start, end = full
                text = text_of(self.doc)[start:end]
        canonical = self.known.get(ent.start, text)
        key = _surname_key(canonical)
        whole = _full_key(canonical)
        ref = self.people.get(whole) if whole else None
        if ref is None:
            ref = self.names.get(key)
            if ref is not None and whole and _namesakes(ref.canonical, canonical):
                ref = None  # 'Petro Hrytsenko' after 'Valentyna Hrytsenko': her husband
        if ref is None:
            ref = Referent(canonical, (start, end), "name")
            self.referents.append(ref)
        elif len(text.split()) > len(ref.canonical.split()) and canonical == text:
            ref.canonical, ref.span = text, (start, end)
        self.names[key] = ref  # a bare surname is the namesake named last
        if whole:
            self.people[whole] = ref
        return ref

    def _add_name(self, ent: Span) -> None:
        ref = self._name_referent(ent)
        head = ent.root
        for t in self.doc[max(ent.start - 4, 0) : ent.start]:
            if t.head.i in range(ent.start, ent.end) and t.lemma_.lower() in self.persons:
                ref.heads |= _heads(t, self.lex)
        for child in head.children:
            if child.dep_ == "appos" and child.pos_ == "NOUN" and child.i > head.i:
                lemma = child.lemma_.lower()
                self.persons.setdefault(lemma, PersonNoun("-", "other", "-"))
            if child.dep_ == "appos" and child.lemma_.lower() in self.persons:
                ref.heads |= _heads(child, self.lex)
                ref.ages |= {a for a in map(_age_of, child.children) if a}
            if child.dep_ == "appos" and child.like_num:
                ref.ages.add(child.text)  # "Maria Hordiyenko, 43,"
        nxt = self.doc[ent.end : ent.end + 3]
        if len(nxt) == 3 and nxt[0].text == "," and nxt[1].like_num and nxt[2].text == ",":
            ref.ages.add(nxt[1].text)
        if head.dep_ == "nsubjpass" and head.head.lemma_.lower() in CAPTURED:
            ref.heads.add("prisoner")  # "X was captured": "the POW" may refer back to X
        mention = self._mention(head, ref)
        for t in ent:
            self.by_token[t.i] = mention

    def _add_pronoun(self, tok: Token, gender: str = "") -> None:
        """A subject pronoun, or "his"/"her" (whose gender then tells "she said" from "he
        tried" in "X said her brother was shot as he tried ...")."""
        plural = False
        if not gender:
            gender, plural = PRONOUNS[tok.lower_]

        def fits(ref: Referent) -> bool:
            if ref.kind == "org":
                return plural
            return ref.plural == plural and (gender == "-" or ref.gender in ("-", gender))

        def known(m: Mention) -> float:
            # "she" is likelier a person the text has named than a soldier of unknown
            # sex mentioned since, unless the pronoun is in that person's own clause
            # ("another soldier described how he was shot")
            ref = m.referent
            unsure = ref.kind == "desc" and ref.gender == "-" and gender != "-"
            governs = self.doc[m.token].head in tok.ancestors
            return 0.5 if unsure and not governs else 1.0

        ref = self.resolve(tok.i, fits, known)
        if ref is not None:
            if ref.kind != "org" and not plural and ref.gender == "-":
                ref.gender = gender
            self._mention(tok, ref)

    def _add_age(self, tok: Token) -> None:
        """ "The 22-year-old said": whoever the text introduced with that age, else the
        description as written."""
        age = _age_of(tok)
        ref = self.resolve(tok.i, lambda r: age in r.ages and not r.plural)
        if ref is None:
            start = tok.doc[tok.left_edge.i].idx if tok.left_edge.i >= tok.i - 5 else tok.idx
            while text_of(self.doc)[start].lower() in "the ":
                start += 1
                if text_of(self.doc)[start - 1] == " ":
                    break
            text = text_of(self.doc)[start : tok.idx + len(tok.text)]
            ref = Referent(text, (start, tok.idx + len(tok.text)), "desc", ages={age or ""})
            self.referents.append(ref)
        self._mention(tok, ref)

    def _add_description(self, tok: Token) -> None:
        lemma = tok.lemma_.lower()
        noun = self.persons[lemma]
        plural = tok.tag_ in ("NNS", "NNPS")
        words = {t.lower_ for t in tok.children if t.i < tok.i}
        start, end = _description_span(tok)
        text = text_of(self.doc)[start:end]
        ref: Referent | None = None
        described = self.by_token.get(tok.head.i) if tok.dep_ == "appos" else None
        if described is not None:
            ref = described.referent  # "Her son, a 27-year-old electrician,"
            ref.ages |= {a for a in map(_age_of, tok.children) if a}
        elif plural:
            pass
        elif noun.role == "proxy":
            if "the" in words:  # "The spokesman added": the spokesman named before
                ref = self.resolve(tok.i, lambda r: lemma in r.heads and r.kind == "name")
        elif words & {"a", "an"} and not words & NEW_MARKERS - {"a", "an"}:
            ref = self._same_text(text)  # a repeated caption or lead
        elif not words & NEW_MARKERS:
            ref = self._antecedent(tok, lemma, noun)
        if ref is None:
            kind = "org" if noun.group == "body" else "desc"  # no antecedent of 'he'
            ref = Referent(text, (start, end), kind, plural, noun.gender, {lemma})
            self.referents.append(ref)
        elif (
            described is None
            and ref.kind == "desc"
            and len(text.split()) > len(ref.canonical.split())
        ):
            ref.canonical, ref.span = text, (start, end)  # the fullest description names it
        if lemma not in GENERIC_HEADS:
            ref.heads |= _heads(tok, self.lex)
        if ref.gender == "-":
            ref.gender = noun.gender
        self._mention(tok, ref)

    def _same_text(self, text: str) -> Referent | None:
        if len(text.split()) < 2:
            return None
        return next(
            (r for r in self.referents if r.kind == "desc" and r.canonical.lower() == text.lower()),
            None,
        )

    def _antecedent(self, tok: Token, lemma: str, noun: PersonNoun) -> Referent | None:
        """A definite description refers back: to the last referent with the same head noun
        ("a woman, apparently his wife ... the woman asks"), else to the nearest one it is
        compatible with ("the man", "the POW" for a soldier)."""

        def fits(ref: Referent) -> bool:
            return not ref.plural and (noun.gender == "-" or ref.gender in ("-", noun.gender))

        def same_group(ref: Referent) -> bool:
            if lemma in GENERIC_HEADS:
                return ref.kind != "org"
            groups = {self.persons[h].group for h in ref.heads if h in self.persons}
            return noun.group != "-" and noun.group in groups

        found = self.resolve(tok.i, lambda r: fits(r) and lemma in r.heads)
        return found or self.resolve(tok.i, lambda r: fits(r) and same_group(r))

    def resolve(
        self,
        before: int,
        accept: Callable[[Referent], bool],
        prefer: Callable[[Mention], float] | None = None,
    ) -> Referent | None:
        """The most salient accepted referent before token `before`.

        Salience in the manner of Lappin and Leass: a referent is as salient as its most
        prominent mention, weighed by grammatical role (subjects most, words inside reported
        speech least) and halved for every sentence back.
        """
        here = self.sent_of[min(before, len(self.doc) - 1)]
        scores: dict[int, float] = {}
        refs: dict[int, Referent] = {}
        for m in self.mentions:
            if m.token >= before:
                break
            distance = here - m.sent
            if distance > MAX_BACK or not accept(m.referent):
                continue
            key = id(m.referent)
            refs[key] = m.referent
            factor = prefer(m) if prefer is not None else 1.0
            scores[key] = max(scores.get(key, 0.0), m.weight * factor * 0.5**distance)
        if not scores:
            return None
        return refs[max(scores, key=lambda k: scores[k])]

    def referent_of(self, tok: Token) -> Referent | None:
        """The speaker a subject token stands for (proxies give way to their owner)."""
        lemma = tok.lemma_.lower()
        noun = self.persons.get(lemma)
        m = self.by_token.get(tok.i)
        if m is not None and m.referent.kind == "name":
            return m.referent  # "the ministry's spokesperson, X": X speaks
        if noun is not None and noun.role == "proxy":
            for child in tok.children:
                if child.dep_ == "poss" and child.pos_ != "PRON":
                    return self.referent_of(child)
        if m is not None:
            return m.referent
        if self.inside[tok.i]:
            return None
        if lemma in PARTITIVES:
            return self._partitive(tok)
        if tok.lower_ == "it" and tok.dep_ == "nsubj":
            body = self._body_before(tok)
            return self.referent_of(body) if body is not None else None
        if tok.pos_ == "PRON":
            return None
        if tok.pos_ not in ("NOUN", "PROPN"):
            return None
        surname = tok.pos_ == "PROPN" or tok.i in self.known  # 'Zelenskyy' tagged a noun
        named = self.names.get(_surname_key(tok.text)) if surname else None
        if named is not None and named.kind == "name":
            self._mention(tok, named)  # "Petryk said", tagged a company: Yaroslav Petryk
            return named
        ent = next((e for e in self.doc.ents if e.start <= tok.i < e.end), None)
        if ent is not None and ent.label_ in ("ORG", "NORP", "GPE"):
            start, end = _strip_possessive(ent)
        else:
            start, end = _description_span(tok)
        text = text_of(self.doc)[start:end]
        key = "org:" + text.lower()
        ref = self.names.get(key)
        if ref is None:
            ref = Referent(text, (start, end), "org", heads={lemma})
            self.names[key] = ref
            self.referents.append(ref)
        self._mention(tok, ref)
        return ref

    def mention_span(self, tok: Token) -> tuple[int, int]:
        """Offsets of the words a subject token stands in: a name, a description, a pronoun."""
        ent = next((e for e in self.doc.ents if e.start <= tok.i < e.end), None)
        person_noun = tok.lemma_.lower() in self.persons
        if ent is not None and ent.label_ in ("PERSON", "ORG", "NORP", "GPE") and not person_noun:
            return _strip_possessive(ent)
        if tok.pos_ == "PROPN" and not person_noun:
            chunk = _name_chunk(tok)
            return chunk.start_char, chunk.end_char
        if tok.pos_ in ("NOUN", "ADJ") or tok.lower_ == "old" or person_noun:
            start, end = _description_span(tok)
            det = tok.doc[tok.left_edge.i]
            if det.lower_ in ("the", "a", "an") and det.i < tok.i and det.idx < start:
                start = det.idx  # "the tank driver", as written
            return start, end
        return tok.idx, tok.idx + len(tok.text)

    def label_referent(self, label: tuple[int, int]) -> Referent:
        """The speaker a transcript label names: "DOVZHENKO" is the Dovzhenko of the
        introduction, "SOLDIER" the soldier it introduced, else the label's own words."""
        words = text_of(self.doc)[label[0] : label[1]]
        title = " ".join(w.capitalize() for w in words.split())
        low = words.lower()
        for ref in self.referents:
            if ref.kind == "name" and ref.canonical.lower() == low:
                return ref
        if len(words.split()) == 1:
            named = self.names.get(_surname_key(title)) or self._first_name(low)
            if named is not None:
                return named
            if low in self.persons:
                found = next((r for r in self.referents if low in r.heads), None)
                if found is not None:
                    return found
                noun = self.persons[low]
                ref = Referent(low, label, "desc", gender=noun.gender, heads={low})
                self.referents.append(ref)
                return ref
        same = self.names.get(_surname_key(title))
        if same is not None and same.canonical.split()[0].lower() == low.split()[0]:
            return same
        ref = Referent(title, None, "name")
        self.referents.append(ref)
        return ref

    def _first_name(self, low: str) -> Referent | None:
        return next(
            (
                r
                for r in self.referents
                if r.kind == "name" and r.canonical.split()[0].lower() == low
            ),
            None,
        )

    def interviewee(self, before: int) -> Referent | None:
        """The person an interview's introduction is about: the named person mentioned most
        before the first question (the first named on a tie)."""
        counts: dict[int, int] = {}
        refs: dict[int, Referent] = {}
        for m in self.mentions:
            if self.doc[m.token].idx >= before:
                break
            if m.referent.kind == "name":
                counts[id(m.referent)] = counts.get(id(m.referent), 0) + 1
                refs.setdefault(id(m.referent), m.referent)
        if counts:
            return refs[max(counts, key=lambda k: counts[k])]
        for lo, hi in paragraphs(text_of(self.doc)):  # "Roksolana Ivaniv coordinates ..."
            opening = self.doc.char_span(lo, min(hi, before), alignment_mode="expand")
            words = list(opening or [])[:3]
            n = next((i for i, t in enumerate(words) if t.pos_ != "PROPN"), len(words))
            if n >= 2 and all(t.text[:1].isupper() for t in words[:n]):
                span = (words[0].idx, words[n - 1].idx + len(words[n - 1].text))
                ref = Referent(text_of(self.doc)[span[0] : span[1]], span, "name")
                self.referents.append(ref)
                return ref
            break
        return None

    def _body_before(self, tok: Token) -> Token | None:
        """ "The association said ... It described the strike as ...": "it" speaking is the
        nearest organisation that was the subject of a sentence just before."""
        here = self.sent_of[tok.i]
        for t in reversed(self.doc[: tok.i]):
            if here - self.sent_of[t.i] > 2:
                break
            if self.inside[t.i] or t.dep_ != "nsubj" or t.pos_ not in ("NOUN", "PROPN"):
                continue
            if t.ent_type_ in ("ORG", "NORP") or t.lemma_.lower() in self.lex.official_orgs:
                return t
        return None

    def _partitive(self, tok: Token) -> Referent | None:
        """ "One of them said": one member of the group named just before ("Three women
        told ..." gives "woman"), else the words themselves as a description."""
        of = next((c for c in tok.children if c.dep_ == "prep" and c.lower_ == "of"), None)
        pobj = next((c for c in of.children if c.dep_ == "pobj"), None) if of else None
        if pobj is None:
            return None
        group: Token | None = None
        members: Referent | None = None
        if pobj.pos_ == "PRON":
            members = self.resolve(tok.i, lambda r: r.plural and r.kind == "desc")
            if members is not None:
                group = self.doc[members.mentions[0].token]
        elif pobj.lemma_.lower() in self.persons:
            group = pobj
            found = self.by_token.get(pobj.i)
            members = found.referent if found is not None else None
        if group is not None and group.lemma_.lower() in self.persons:
            lemma = group.lemma_.lower()
            words = [
                c.text for c in group.children if c.i < group.i and c.dep_ in ("amod", "compound")
            ]
            noun = self.persons[lemma]
            ref = Referent(" ".join([*words, lemma]), None, "desc", False, noun.gender, {lemma})
            ref.group = members
        else:
            start, end = tok.idx, pobj.idx + len(pobj.text)
            ref = Referent(text_of(self.doc)[start:end], (start, end), "desc")
        self.referents.append(ref)
        self._mention(tok, ref)
        return ref


def _age_of(tok: Token) -> str | None:
    """ "22-year-old": the number, when `tok` is the "old" of such a compound."""
    if tok.lower_ != "old":
        return None
    for year in tok.children:
        if year.lower_ in ("year", "years"):
            num = next((c for c in year.children if c.like_num), None)
            if num is not None:
                return num.text
    return None


def _heads(tok: Token, lex: Lexicon) -> set[str]:
    """The person noun's lemma, plus "modifier head" when the lexicon knows the pair
    ("community leader" is no official though "leader" alone may be)."""
    lemma = tok.lemma_.lower()
    found = {lemma}
    for child in tok.children:
        pair = f"{child.lemma_.lower()} {lemma}"
        if child.i < tok.i and child.dep_ in ("compound", "amod") and pair in lex.persons:
            found.add(pair)
    return found


def _name_chunk(tok: Token) -> Span:
    """A proper name: the head PROPN and the PROPN compounds directly before it."""
    start = tok.i
    while start > 0:
        prev = tok.doc[start - 1]
        if (
            prev.pos_ == "PROPN"
            and prev.dep_ == "compound"
            and prev.head.i in range(start, tok.i + 1)
        ):
            start -= 1
        else:
            break
    return tok.doc[start : tok.i + 1]


def _named_by(tok: Token) -> Token | None:
    """The PROPN that a noun is named by: appositive, "by the name of X", "named X"."""
    for child in tok.children:
        if child.dep_ == "appos" and child.pos_ == "PROPN" and child.text[:1].isupper():
            return child
        if child.dep_ == "prep" and child.lower_ in ("by", "called"):
            for pobj in child.children:
                if pobj.lower_ == "name":
                    for of in pobj.children:
                        for name in of.children:
                            if name.pos_ == "PROPN":
                                return name
        if child.dep_ == "acl" and child.lower_ in ("named", "called"):
            for name in child.children:
                if name.pos_ == "PROPN":
                    return name
        if child.dep_ == "relcl" and child.lemma_.lower() in SELF_NAMING:
            # "a soldier, who introduces himself as Serhiy" / "who gave his name as Serhiy"
            for prep in child.children:
                if prep.dep_ == "prep" and prep.lower_ == "as":
                    given = next((n for n in prep.children if n.pos_ == "PROPN"), None)
                    if given is not None:
                        return given
    return None


def _comma_name(tok: Token) -> Token | None:
    """ "X's cousin, Hagos, who ...": a one-word proper name set off by commas right after
    a noun, which the parser often misreads as a second subject rather than an apposition."""
    doc = tok.doc
    if tok.i + 3 >= len(doc) or doc[tok.i + 1].text != ",":
        return None
    name, after = doc[tok.i + 2], doc[tok.i + 3]
    if name.pos_ != "PROPN" or not name.text[:1].isupper() or after.text != ",":
        return None
    return name


def _in_reported_clause(tok: Token, cues: dict[str, str]) -> bool:
    """True for words inside what someone is reported to have said."""
    return any(a.dep_ == "ccomp" and a.head.lemma_.lower() in cues for a in tok.ancestors)


def _description_span(tok: Token) -> tuple[int, int]:
    """Offsets of a description: modifiers before the head, plus a short "of" phrase."""
    doc = tok.doc
    left = tok.i
    while left > 0:
        prev = doc[left - 1]
        if prev.is_punct and prev.text not in "-–":
            break
        if prev.lower_ in DETERMINERS or prev.lower_ in DROP_WORDS or prev.pos_ in ("PRON", "ADP"):
            break
        if prev.tag_ in ("WDT", "WP", "WP$"):
            break  # "a call in which soldier describes": the relative word is no modifier
        if tok not in prev.ancestors and prev.head != tok:
            break
        left -= 1
    while left < tok.i and not doc[left].is_alpha and not doc[left].like_num:
        left += 1
    right = tok.i
    for child in tok.children:
        if child.i > tok.i and child.dep_ == "prep" and child.lower_ == "of":
            edge = child.right_edge.i
            if edge - child.i <= 6 and child.i == right + 1:
                right = edge
    return doc[left].idx, doc[right].idx + len(doc[right].text)
