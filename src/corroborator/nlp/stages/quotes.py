"""Direct quotations with their speakers, the speaker's role and the quote's stance.

Quote marks are found by `quote_marks.scan_quotes`; this stage attributes them. Speakers
are where the value is, so attribution follows the order that works on news text:
(1) a cue verb outside the quote in the same sentence and its subject; (2) the other quotes
of the paragraph; (3) a quotation that runs on from the previous paragraph; (4) "X said:"
or "X said that" in the sentence before a paragraph-initial quote. Pronouns and definite
descriptions ("he", "the POW") resolve by salience (recency, subjecthood), in the manner of
Lappin and Leass, over the people mentioned outside quotes; surnames resolve to the
fullest form of the name in the document. Descriptions stay descriptions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from spacy.tokens import Doc, Span, Token

from corroborator.models import Quote
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.quote_marks import MarkedQuote, paragraphs, scan_quotes

MIN_WORDS = 4
SUBJECTS = ("nsubj", "nsubjpass")
PERSONAL = {"his", "her", "he", "she", "himself", "herself"}
PRONOUNS = {"he": ("m", False), "she": ("f", False), "they": ("-", True)}
POSSESSIVES = {"his": "m", "her": "f"}
DETERMINERS = {"a", "an", "the", "this", "that", "these", "those", "another", "one", "some"}
NEW_MARKERS = {"a", "an", "another", "one", "some", "separate", "second", "third", "other"}
DROP_WORDS = {"separate", "second", "third", "other", "another", "same", "fellow", "also"}
GENERIC_HEADS = {"man", "woman", "person", "boy", "girl"}
PARTITIVES = {"one"}
FIRST_PERSON = {"i", "me", "my", "we", "us", "our"}
PERCEPTION = {"hear", "see", "watch", "notice", "listen", "feel", "smell"}
HARM_NOUNS = {"wound", "wounds", "injury", "injuries"}
MAX_BACK = 6  # sentences a pronoun may look back
ROLE_ORDER = ("official", "journalist", "victim", "witness", "other")


@dataclass(frozen=True)
class PersonNoun:
    gender: str
    role: str
    group: str


@dataclass(frozen=True)
class Lexicon:
    cues: dict[str, str]
    persons: dict[str, PersonNoun]
    violence: frozenset[str]
    denials: tuple[str, ...]
    official_orgs: dict[str, str]
    denial_nouns: frozenset[str]
    allegations: frozenset[str]
    units: frozenset[str]


def _lines(name: str) -> Iterable[list[str]]:
    text = (resources.files("corroborator.nlp") / "lexicons" / name).read_text("utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            yield line.rstrip("\n").split("\t")


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """Word lists, loaded once from the lexicon data files."""
    return Lexicon(
        cues={r[0]: (r[1] if len(r) > 1 else "") for r in _lines("quotes_cues.txt")},
        persons={r[0]: PersonNoun(r[1], r[2], r[3]) for r in _lines("quotes_person_nouns.txt")},
        violence=frozenset(r[0] for r in _lines("quotes_violence.txt")),
        denials=tuple(r[0] for r in _lines("quotes_denials.txt")),
        official_orgs={
            r[0]: (r[1] if len(r) > 1 else "") for r in _lines("quotes_official_orgs.txt")
        },
        denial_nouns=frozenset(r[0] for r in _lines("quotes_denial_nouns.txt")),
        allegations=frozenset(r[0] for r in _lines("quotes_allegation_nouns.txt")),
        units=frozenset(r[0] for r in _lines("quotes_units.txt")),
    )


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


@dataclass(eq=False)
class Mention:
    token: int
    sent: int
    weight: float
    referent: Referent


def _surname_key(text: str) -> str:
    from unidecode import unidecode

    words = re.findall(r"[^\W\d_]+", unidecode(text).lower())
    return words[-1] if words else text.lower()


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
        self.sent_of = self._sentence_index()
        self.caption = self._caption_mask()
        self.by_token: dict[int, Mention] = {}
        self.mentions: list[Mention] = []
        self.names: dict[str, Referent] = {}
        self.referents: list[Referent] = []
        self._build()

    def _sentence_index(self) -> list[int]:
        """Narrative sentence number of each token; a line break always ends a sentence."""
        index = [0] * len(self.doc)
        n = -1
        started = False
        for t in self.doc:
            prev = self.doc[t.i - 1] if t.i else None
            if t.is_sent_start or prev is None or "\n" in prev.text + prev.whitespace_:
                started = False
            if not started and not self.inside[t.i] and t.is_alpha:
                n += 1
                started = True
            index[t.i] = max(n, 0)
        return index

    def _caption_mask(self) -> list[bool]:
        """Tokens of lines that do not end like a sentence: photo captions and headlines,
        which news pages interleave with the story and which rarely hold its speakers."""
        mask = [False] * len(self.doc)
        for lo, hi in paragraphs(text_of(self.doc)):
            line = text_of(self.doc)[lo:hi].rstrip()
            if line and line[-1] not in '.!?"”’…:)':
                span = self.doc.char_span(lo, hi, alignment_mode="expand")
                for t in span or []:
                    mask[t.i] = True
        return mask

    # -- building ------------------------------------------------------------------
    def _build(self) -> None:
        person_ents = self._person_spans()
        for tok in self.doc:
            if self.inside[tok.i] or tok.i in self.by_token:
                continue
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

    def _person_spans(self) -> dict[int, Span]:
        """PERSON entities, plus proper names the small model mislabels but the syntax
        shows to be people: subjects of cue verbs, "a soldier named X", "X, a researcher"."""
        spans = {t.i: ent for ent in self.doc.ents if ent.label_ == "PERSON" for t in ent}
        for tok in self.doc:
            if tok.i in spans or self.inside[tok.i] or tok.pos_ != "PROPN":
                continue
            if self._comma_appos(tok):
                spans[tok.i] = tok.doc[tok.i : tok.i + 1]
                continue
            if tok.dep_ == "compound" or tok.ent_type_ in ("GPE", "LOC", "DATE", "NORP"):
                continue
            if tok.lemma_.lower() in self.lex.persons:
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
        if subj.dep_ == "nsubj" and _is_cue(subj.head, self.lex):
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
        if any(c.dep_ == "compound" and c.lemma_.lower() in self.lex.persons for c in tok.children):
            return True
        return any(self._is_person_noun(n) and _named_by(n) == tok for n in tok.ancestors)

    def _is_person_noun(self, tok: Token) -> bool:
        return (
            tok.pos_ in ("NOUN", "PROPN")
            and tok.lemma_.lower() in self.lex.persons
            and tok.dep_ != "compound"
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

    def _name_referent(self, ent: Span) -> Referent:
        start, end = _strip_possessive(ent)
        text = text_of(self.doc)[start:end]
        canonical = self.known.get(ent.start, text)
        key = _surname_key(canonical)
        ref = self.names.get(key)
        if ref is None:
            ref = Referent(canonical, (start, end), "name")
            self.names[key] = ref
            self.referents.append(ref)
        elif len(text.split()) > len(ref.canonical.split()) and canonical == text:
            ref.canonical, ref.span = text, (start, end)
        return ref

    def _add_name(self, ent: Span) -> None:
        ref = self._name_referent(ent)
        head = ent.root
        for t in self.doc[max(ent.start - 4, 0) : ent.start]:
            if t.head.i in range(ent.start, ent.end) and t.lemma_.lower() in self.lex.persons:
                ref.heads |= _heads(t, self.lex)
        for child in head.children:
            if child.dep_ == "appos" and child.lemma_.lower() in self.lex.persons:
                ref.heads |= _heads(child, self.lex)
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

        ref = self.resolve(tok.i, fits)
        if ref is not None:
            if ref.kind != "org" and not plural and ref.gender == "-":
                ref.gender = gender
            self._mention(tok, ref)

    def _add_description(self, tok: Token) -> None:
        lemma = tok.lemma_.lower()
        noun = self.lex.persons[lemma]
        plural = tok.tag_ in ("NNS", "NNPS")
        words = {t.lower_ for t in tok.children if t.i < tok.i}
        start, end = _description_span(tok)
        text = text_of(self.doc)[start:end]
        ref: Referent | None = None
        if plural or noun.role == "proxy":
            pass
        elif words & {"a", "an"} and not words & NEW_MARKERS - {"a", "an"}:
            ref = self._same_text(text)  # a repeated caption or lead
        elif not words & NEW_MARKERS:
            ref = self._antecedent(tok, lemma, noun)
        if ref is None:
            ref = Referent(text, (start, end), "desc", plural, noun.gender, {lemma})
            self.referents.append(ref)
        elif ref.kind == "desc" and len(text.split()) > len(ref.canonical.split()):
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
        """A definite description refers back: to the last referent with the same head noun,
        else to the nearest one it is compatible with ("the man", "the POW" for a soldier)."""

        def fits(ref: Referent) -> bool:
            return not ref.plural and (noun.gender == "-" or ref.gender in ("-", noun.gender))

        def same_group(ref: Referent) -> bool:
            if lemma in GENERIC_HEADS:
                return ref.kind != "org"
            groups = {self.lex.persons[h].group for h in ref.heads if h in self.lex.persons}
            return noun.group != "-" and noun.group in groups

        found = None
        if lemma not in GENERIC_HEADS:
            found = self.resolve(tok.i, lambda r: fits(r) and lemma in r.heads)
        return found or self.resolve(tok.i, lambda r: fits(r) and same_group(r))

    def resolve(self, before: int, accept: Callable[[Referent], bool]) -> Referent | None:
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
            scores[key] = max(scores.get(key, 0.0), m.weight * 0.5**distance)
        if not scores:
            return None
        return refs[max(scores, key=lambda k: scores[k])]

    def referent_of(self, tok: Token) -> Referent | None:
        """The speaker a subject token stands for (proxies give way to their owner)."""
        lemma = tok.lemma_.lower()
        noun = self.lex.persons.get(lemma)
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
        if tok.pos_ == "PRON":
            return None
        if tok.pos_ not in ("NOUN", "PROPN"):
            return None
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
        elif pobj.lemma_.lower() in self.lex.persons:
            group = pobj
            found = self.by_token.get(pobj.i)
            members = found.referent if found is not None else None
        if group is not None and group.lemma_.lower() in self.lex.persons:
            lemma = group.lemma_.lower()
            words = [
                c.text for c in group.children if c.i < group.i and c.dep_ in ("amod", "compound")
            ]
            noun = self.lex.persons[lemma]
            ref = Referent(" ".join([*words, lemma]), None, "desc", False, noun.gender, {lemma})
            ref.group = members
        else:
            start, end = tok.idx, pobj.idx + len(pobj.text)
            ref = Referent(text_of(self.doc)[start:end], (start, end), "desc")
        self.referents.append(ref)
        self._mention(tok, ref)
        return ref


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


# -- attribution -------------------------------------------------------------------
def _same_line(a: Token, b: Token) -> bool:
    lo, hi = sorted((a.idx, b.idx))
    return "\n" not in text_of(a.doc)[lo:hi]


def _cue_subject(cue: Token, lex: Lexicon) -> Token | None:
    """The grammatical speaker of a cue verb, climbing out of participles and conjuncts.

    The parser sometimes joins a caption to the next line; a subject must share the cue's line.
    """
    found = _cue_subject_any(cue, lex)
    return found if found is not None and _same_line(found, cue) else None


def _cue_subject_any(cue: Token, lex: Lexicon) -> Token | None:
    if cue.lower_ == "according":
        for to in cue.children:
            for pobj in to.children:
                if pobj.dep_ == "pobj":
                    return pobj
        return None
    tok: Token = cue
    for _ in range(3):
        for child in tok.children:
            if not _same_line(child, cue):
                continue
            if child.dep_ == "nsubj" or (child.dep_ == "nsubjpass" and tok != cue):
                if child.tag_ in ("WP", "WDT") and tok.dep_ == "relcl":
                    return tok.head
                return child
        if tok.dep_ == "acl" and tok.head.pos_ in ("NOUN", "PROPN"):
            if tok.head.lemma_.lower() in lex.persons or tok.head.ent_type_ == "PERSON":
                return tok.head
            tok = tok.head
            if tok.dep_ in ("dobj", "pobj", "attr"):
                tok = tok.head
            continue
        if tok.dep_ == "advcl" and tok.tag_ == "VBG":
            for obj in tok.head.children:
                if obj.dep_ == "dobj" and obj.lemma_.lower() in lex.persons:
                    return obj
        if tok.dep_ in ("conj", "xcomp", "advcl", "relcl") and tok.head != tok:
            tok = tok.head
            continue
        break
    return None


def _is_cue(tok: Token, lex: Lexicon) -> bool:
    if tok.lower_ == "according":
        return tok.i + 1 < len(tok.doc) and tok.doc[tok.i + 1].lower_ == "to"
    return tok.pos_ in ("VERB", "AUX") and _cue_lemma(tok, lex) is not None


def _lemma_in(tok: Token, words: Container[str]) -> str | None:
    """The verb's lemma in `words`, guarding against the tagger's odd lemmas (raging -> rag,
    raped -> rap)."""
    low = tok.lower_
    forms = [tok.lemma_.lower(), low]
    for suffix, repl in (("ing", "e"), ("ing", ""), ("ed", "e"), ("ed", ""), ("s", "")):
        if low.endswith(suffix):
            forms.append(low[: -len(suffix)] + repl)
    return next((f for f in forms if f in words), None)


def _cue_lemma(tok: Token, lex: Lexicon) -> str | None:
    if tok.lower_ == "according":
        return "according to"
    return _lemma_in(tok, lex.cues)


def _violent(tok: Token, lex: Lexicon) -> bool:
    return _lemma_in(tok, lex.violence) is not None


@dataclass
class Attribution:
    referent: Referent | None
    cue: Token | None = None
    how: str = ""


def _segment_tokens(doc: Doc, start: int, end: int) -> list[Token]:
    span = doc.char_span(start, end, alignment_mode="contract")
    return list(span) if span is not None else []


def _sentence_stop(text: str, start: int, end: int) -> int:
    """End of the clause after a quote: the next sentence-final stop, or `end`."""
    match = re.search(r"[.!?](\s|$)", text[start:end])
    return start + match.end(0) if match else end


def _fold_words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


def _sentence_start(text: str, lo: int, end: int) -> int:
    starts = [m.end(0) for m in re.finditer(r"[.!?]\s+", text[lo:end])]
    return lo + starts[-1] if starts else lo


class Attributor:
    """Give each quote a speaker, in the order of evidence described in the module doc."""

    def __init__(self, doc: Doc, quotes: list[MarkedQuote], discourse: Discourse) -> None:
        self.doc = doc
        self.text = text_of(doc)
        self.quotes = quotes
        self.disc = discourse
        self.lex = discourse.lex

    def _cue_in(
        self, tokens: list[Token], nearest_last: bool, q: MarkedQuote, far_governs: bool = False
    ) -> Attribution | None:
        """The nearest cue verb with a speaker; `far_governs`: a cue more than four words
        away must govern the quote. A cue that governs the quote but names no one still
        marks it as reported speech (an explicit cue is never dropped)."""
        order = reversed(tokens) if nearest_last else iter(tokens)
        speechless: Attribution | None = None
        for n, tok in enumerate(order):
            if self.disc.inside[tok.i] or not _is_cue(tok, self.lex):
                continue
            naming = self.lex.cues.get(_cue_lemma(tok, self.lex) or "") == "names"
            if naming and not self._names(tok, q):
                continue
            if far_governs and n > 4 and not self._governs(tok, q):
                continue
            subject = _cue_subject(tok, self.lex)
            if subject is None or self.disc.inside[subject.i]:
                if speechless is None and subject is None and self._governs(tok, q):
                    speechless = Attribution(None, tok, "cue")
                continue
            ref = self.disc.referent_of(subject)
            if ref is not None:
                return Attribution(ref, tok, "cue")
        return speechless

    def _names(self, cue: Token, q: MarkedQuote) -> bool:
        """ "called the strike “...”", "branded it “...”": the quote is the verb's object
        or complement, not a phrasal use ("called for", "called up")."""
        if cue.dep_ == "acl" or any(c.dep_ == "prt" for c in cue.children):
            return False
        for t in _segment_tokens(self.doc, q.start, q.end):
            head = t.head
            if head.i < t.i and self.disc.inside[head.i]:
                continue
            if head == cue and t.dep_ in ("oprd", "dobj", "attr", "ccomp", "xcomp"):
                return True
            if head.dep_ == "prep" and head.lower_ == "as" and head.head == cue:
                return True
        return False

    def _governs(self, cue: Token, q: MarkedQuote) -> bool:
        """The parser hangs the quoted words (or their last sentence) under the cue verb."""
        words = _segment_tokens(self.doc, q.start, q.end)
        return any(cue in t.ancestors for t in words)

    def own_cue(self, k: int) -> Attribution | None:
        q = self.quotes[k]
        same_para = [o for o in self.quotes if o.para == q.para]
        nxt = next((o.open_at for o in same_para if o.open_at > q.open_at), q.para_end)
        after_end = _sentence_stop(self.text, q.outer_end, nxt)
        after = _segment_tokens(self.doc, q.outer_end, after_end)
        found = None
        if after and self._quote_ends_clause(q):
            found = self._cue_in(after[:30], nearest_last=False, q=q, far_governs=True)
        if found is not None and found.referent is not None:
            return found
        prev = max(
            (o.outer_end for o in same_para if o.outer_end <= q.open_at), default=q.para_start
        )
        before_start = _sentence_start(self.text, prev, q.open_at)
        before = _segment_tokens(self.doc, before_start, q.open_at)
        return self._cue_in(before, nearest_last=True, q=q) or found

    def _quote_ends_clause(self, q: MarkedQuote) -> bool:
        """‘...,’ he said / “...?” she asked: the quote closes on punctuation or a dash follows."""
        inner = self.text[q.start : q.close_at] if q.close_at is not None else ""
        after = self.text[q.outer_end : q.outer_end + 2].strip()
        return bool(inner) and (inner.rstrip()[-1] in ",.?!…" or after[:1] in (",", "—", "–", "-"))

    def previous_sentence(self, q: MarkedQuote) -> Attribution | None:
        """'X said:' or 'X said that' closing the paragraph before a paragraph-initial quote."""
        if q.open_at != q.para_start:
            return None
        prev_para = self.text.rfind("\n", 0, q.para_start - 1)
        lo = prev_para + 1
        hi = q.para_start - 1
        if hi <= lo:
            return None
        inner = [o for o in self.quotes if lo <= o.open_at < hi]
        if inner and inner[-1].runs_on:
            return None
        start = _sentence_start(self.text, lo, max(hi - 1, lo))
        found = self._cue_in(_segment_tokens(self.doc, start, hi), nearest_last=True, q=q)
        return found if found is not None and found.referent is not None else None

    def topic(self, q: MarkedQuote) -> Attribution | None:
        """A paragraph-initial quote in the first person after a paragraph that ends on a
        person as its subject ("X, a teacher, ... She remembers the noise first.")."""
        if q.open_at != q.para_start or not FIRST_PERSON & set(
            re.findall(r"[a-z]+", self.text[q.start : q.end].lower())
        ):
            return None
        hi = q.para_start - 1
        lo = self.text.rfind("\n", 0, max(hi - 1, 0)) + 1
        if hi <= lo or any(lo <= o.open_at < hi for o in self.quotes):
            return None
        start = _sentence_start(self.text, lo, max(hi - 1, lo))
        for tok in _segment_tokens(self.doc, start, hi):
            m = self.disc.by_token.get(tok.i)
            if tok.dep_ == "nsubj" and tok.head.dep_ == "ROOT" and m is not None:
                person = m.referent.kind != "org" and not m.referent.plural
                return Attribution(m.referent, None, "topic") if person else None
        return None

    def attribute(self) -> list[Attribution]:
        result: list[Attribution] = [Attribution(None) for _ in self.quotes]
        for k in range(len(self.quotes)):
            found = self.own_cue(k)
            if found is not None:
                result[k] = found
        for k, q in enumerate(self.quotes):
            if result[k].referent is not None:
                continue
            para = [j for j, o in enumerate(self.quotes) if o.para == q.para and j != k]
            donor = next((j for j in reversed(para) if j < k and result[j].referent), None)
            if donor is None:
                donor = next((j for j in para if j > k and result[j].how == "cue"), None)
            if donor is not None:
                result[k] = Attribution(result[donor].referent, None, "paragraph")
                continue
            cont = self._continued_from(k)
            if cont is not None and result[cont].referent is not None:
                result[k] = Attribution(result[cont].referent, None, "continues")
                continue
            found = self.previous_sentence(q)
            if found is not None:
                result[k] = Attribution(found.referent, found.cue, "previous")
                continue
            found = self.topic(q)
            if found is not None:
                result[k] = found
                for j in range(k + 1, len(self.quotes)):  # the quotation it opens runs on
                    if self._continued_from(j) != j - 1 or result[j].referent is not None:
                        break
                    result[j] = Attribution(found.referent, None, "continues")
        self._echoes(result)
        return result

    def _echoes(self, result: list[Attribution]) -> None:
        """A headline or pull quote repeats words quoted, with a speaker, in the body."""
        folded = [_fold_words(self.text[q.start : q.end]) for q in self.quotes]
        for k, words in enumerate(folded):
            if result[k].referent is not None or result[k].cue is not None:
                continue
            donor = next(
                (
                    j
                    for j, other in enumerate(folded)
                    if j != k
                    and result[j].referent is not None
                    and (words in other or other in words)
                ),
                None,
            )
            if donor is not None:
                result[k] = Attribution(result[donor].referent, None, "echo")

    def _continued_from(self, k: int) -> int | None:
        """The quote this paragraph-initial quote continues (British re-opened quotation)."""
        q = self.quotes[k]
        if q.open_at != q.para_start or k == 0:
            return None
        prev = self.quotes[k - 1]
        if not prev.runs_on or q.para - prev.para > 3:
            return None
        return k - 1


# -- roles and stance --------------------------------------------------------------
def _negated(tok: Token) -> bool:
    if any(c.dep_ == "neg" for c in tok.children):
        return True
    for subj in tok.children:
        if subj.dep_ in SUBJECTS and (
            subj.lower_ in ("nobody", "none", "nothing")
            or any(c.lower_ == "no" for c in subj.children)
        ):
            return True
    return False


def _subject(tok: Token) -> Token | None:
    while True:
        for child in tok.children:
            if child.dep_ in SUBJECTS:
                return child
        if tok.dep_ in ("conj", "xcomp") and tok.head != tok:
            tok = tok.head
            continue
        return None


def _quote_tokens(doc: Doc, q: Quote) -> list[Token]:
    return _segment_tokens(doc, q.start, q.end)


def _denial_cue(tok: Token, lex: Lexicon) -> bool:
    return lex.cues.get(_cue_lemma(tok, lex) or "") == "denies"


def _cue_denies(cue: Token, q: Quote, lex: Lexicon) -> bool:
    """The cue denies, or a denial shares its subject: "said ... ‘...’ and denied that ..."."""
    if _denial_cue(cue, lex):
        return True
    for t in cue.subtree:
        if q.start <= t.idx < q.end or t.dep_ != "conj" or not _denial_cue(t, lex):
            continue
        if not any(c.dep_ in SUBJECTS for c in t.children):
            return True
    return False


def _dismissal(t: Token, lex: Lexicon) -> bool:
    """ "These are lies", "Pure propaganda.": a denial noun as what the quote calls a claim."""
    if t.pos_ not in ("NOUN", "PROPN") or t.lemma_.lower() not in lex.denial_nouns:
        return False
    return t.dep_ in ("attr", "ROOT") or (t.dep_ == "conj" and t.head.dep_ in ("attr", "ROOT"))


def _negated_allegation(t: Token, lex: Lexicon) -> bool:
    """ "did not commit any atrocities", "there was no massacre"."""
    if t.pos_ in ("VERB", "AUX") and _negated(t):
        return any(c.dep_ == "dobj" and c.lemma_.lower() in lex.allegations for c in t.children)
    if t.lemma_.lower() in lex.allegations and t.head.lemma_ == "be":
        return any(c.dep_ == "det" and c.lower_ == "no" for c in t.children)
    return False


def _denies(doc: Doc, q: Quote, cue: Token | None, lex: Lexicon) -> bool:
    if cue is not None and _cue_denies(cue, q, lex):
        return True
    low = q.text.lower()
    if any(re.search(r"\b" + re.escape(p), low) for p in lex.denials):
        return True
    return any(
        (_violent(t, lex) and t.pos_ == "VERB" and _negated(t))
        or _dismissal(t, lex)
        or _negated_allegation(t, lex)
        for t in _quote_tokens(doc, q)
    )


def _self_report(doc: Doc, q: Quote, lex: Lexicon) -> tuple[bool, bool]:
    """(speaker did violence, speaker suffered it) from first-person clauses in a quote."""
    did = harmed = False
    for t in _quote_tokens(doc, q):
        if not _violent(t, lex) or t.pos_ != "VERB" or _negated(t):
            continue
        subj = _subject(t)
        if t.tag_ == "VBG" and t.head.lemma_.lower() in PERCEPTION:
            subj = None  # "we heard shooting": witnessed, not done
        if subj is not None and subj.lower_ in ("i", "we") and subj.dep_ == "nsubj":
            did = True
        if subj is not None and subj.lower_ == "i" and subj.dep_ == "nsubjpass":
            harmed = True
        if any(c.dep_ == "dobj" and c.lower_ == "me" for c in t.children):
            harmed = True
    return did, harmed


def _narrates(doc: Doc, q: Quote) -> bool:
    """ "We heard the jet", "I lost my husband": the speaker tells, in the first person and
    the past tense, what they lived through."""
    return any(
        t.lower_ in ("i", "we") and t.dep_ in SUBJECTS and t.head.tag_ == "VBD"
        for t in _quote_tokens(doc, q)
    )


def _narrative_evidence(disc: Discourse) -> None:
    """Confessions and harm stated about a referent outside quotes."""
    lex = disc.lex
    for m in [m for ref in disc.referents for m in ref.mentions]:
        tok = disc.doc[m.token]
        head = tok.head
        ref = m.referent
        if tok.dep_ == "nsubj" and lex.cues.get(_cue_lemma(head, lex) or "") == "confesses":
            # "admitted to killing", "confessed that he was ordered to kill": violence admitted
            admitted = (t for t in head.subtree if t.i != tok.i and t not in tok.subtree)
            if any(_violent(t, lex) for t in admitted):
                ref.confesses = True
        if tok.dep_ == "nsubjpass" and _violent(head, lex) and not _negated(head):
            ref.harmed = True
        if tok.dep_ == "nsubj" and head.lemma_.lower() in lex.cues:
            _reported_violence(disc, tok, head, ref)
        described = [tok, *(c for c in tok.children if c.dep_ == "appos")]
        for clause in (c for d in described for c in d.children if c.dep_ == "relcl"):
            _relative_evidence(clause, ref, lex)


def _relative_evidence(verb: Token, ref: Referent, lex: Lexicon) -> None:
    """ "a vendor who was wounded / treated for wounds" (harmed); "a farmer whose son died"
    (harmed: a bereaved relative); "whose brother was among them" (a witness)."""
    passive = any(c.dep_ == "auxpass" for c in verb.children)
    lemma = verb.lemma_.lower()
    if passive and (
        _violent(verb, lex) or any(t.lemma_.lower() in HARM_NOUNS for t in verb.subtree)
    ):
        ref.harmed = True
    for subj in verb.children:
        if subj.dep_ not in SUBJECTS or not any(c.lower_ == "whose" for c in subj.children):
            continue
        if subj.lemma_.lower() not in lex.persons:
            continue
        if (_violent(verb, lex) or lemma == "die") and not _negated(verb):
            ref.harmed = True
        ref.roles.add("witness")


def _reported_violence(disc: Discourse, subj: Token, cue: Token, ref: Referent) -> None:
    """ "X said he killed ...", "X and Y said they massacred ...": a confession."""
    group = any(c.dep_ == "conj" for c in subj.children)
    for clause in cue.children:
        if clause.dep_ != "ccomp":
            continue
        verbs = [clause, *(c for c in clause.children if c.dep_ == "conj")]
        for verb in verbs:
            if not _violent(verb, disc.lex) or _negated(verb):
                continue
            agent = _subject(verb)
            if agent is None or agent.dep_ != "nsubj":
                continue
            own_unit = agent.lemma_.lower() in disc.lex.units and any(
                c.dep_ == "poss" and c.lower_ in ("his", "her", "their") for c in agent.children
            )
            if agent.lower_ in ("he", "she") or (agent.lower_ == "they" and group) or own_unit:
                ref.confesses = True
                if group:
                    for conj in subj.children:
                        other = disc.by_token.get(conj.i) if conj.dep_ == "conj" else None
                        if other is not None:
                            other.referent.confesses = True


def _role(ref: Referent, lex: Lexicon) -> str:
    """One role per speaker per document, from the strongest evidence: a confession, then an
    office (a title anywhere in the document), then a denial (the accused), then the rest.
    A "leader" or "head" may lead an armed group: official, but accused when denying."""
    if ref.confesses:
        return "perpetrator"
    heads = set(ref.heads)
    for pair in [h for h in heads if " " in h]:
        heads.discard(pair.split()[-1])  # "community leader" overrides "leader"
    hints = {lex.persons[h].role for h in heads if h in lex.persons} | ref.roles
    words = set(re.findall(r"[a-z]+", ref.canonical.lower())) | ref.heads
    tags = {lex.official_orgs[w] for w in words if w in lex.official_orgs}
    if ref.kind != "org" and "proxy" not in hints:
        tags = set()
    state = "" in tags  # a ministry or its spokesman speaks for the state; an army is a party
    if ref.denies:
        return "official" if "official" in hints or state else "accused"
    if hints & {"proxy", "leader"} or tags:
        hints.add("official")  # spokesmen and press services speak for an office
    harmed = ref.harmed or (ref.group is not None and ref.group.harmed)
    if harmed and hints & {"witness", "victim"}:
        return "victim"
    role = next((r for r in ROLE_ORDER if r in hints), "other")
    if role == "other" and ref.narrates and ref.kind != "org":
        return "witness"  # a person telling, in the first person, what they lived through
    return role


# -- the stage ---------------------------------------------------------------------
def _inside_mask(doc: Doc, marks: list[MarkedQuote]) -> list[bool]:
    inside = [False] * len(doc)
    for q in marks:
        span = doc.char_span(q.open_at, q.outer_end, alignment_mode="expand")
        if span is not None:
            for t in span:
                inside[t.i] = True
    return inside


def _known_names(ctx: DocContext) -> dict[int, str]:
    """Canonical person names from the entities stage, keyed by token index."""
    known: dict[int, str] = {}
    for e in ctx.extraction.entities:
        if e.kind == "person" and e.canonical:
            span = ctx.doc.char_span(e.start, e.end, alignment_mode="expand")
            if span is not None:
                for t in span:
                    known[t.i] = e.canonical
    return known


def extract_quotes(ctx: DocContext) -> list[Quote]:
    """Quotes of four or more words with speaker, role and stance."""
    doc = ctx.doc
    text = text_of(doc)
    lex = lexicon()
    marks = scan_quotes(text)
    disc = Discourse(doc, _inside_mask(doc, marks), _known_names(ctx))
    kept = [q for q in marks if len(text[q.start : q.end].split()) >= MIN_WORDS]
    attributions = Attributor(doc, kept, disc).attribute()
    _narrative_evidence(disc)

    drafts: list[tuple[Quote, Attribution, MarkedQuote]] = []
    for q, att in zip(kept, attributions, strict=True):
        if att.referent is None and att.cue is None and q.open_at != q.para_start:
            continue  # an unattributed phrase in running text: a slogan or a title
        record = Quote(q.start, q.end, text[q.start : q.end], None)
        drafts.append((record, att, q))

    denies = [_denies(doc, r, a.cue, lex) for r, a, _ in drafts]
    runs: list[list[int]] = []  # paragraphs of one re-opened quotation share a stance
    for i, (_, att, _) in enumerate(drafts):
        prev = drafts[i - 1][1] if i else None
        if runs and att.how == "continues" and prev is not None and prev.referent is att.referent:
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        if any(denies[i] for i in run):
            for i in run:
                denies[i] = True
    for (record, att, _), denied in zip(drafts, denies, strict=True):
        ref = att.referent
        if ref is None:
            continue
        did, harmed = _self_report(doc, record, lex)
        ref.narrates |= _narrates(doc, record)
        ref.confesses |= did
        ref.harmed |= harmed
        ref.denies |= denied

    out: list[Quote] = []
    for (record, att, _), denied in zip(drafts, denies, strict=True):
        ref = att.referent
        cue = _cue_lemma(att.cue, lex) if att.cue is not None else None
        if ref is None:
            out.append(Quote(record.start, record.end, record.text, None, cue=cue))
            continue
        span = ref.span
        out.append(
            Quote(
                record.start,
                record.end,
                record.text,
                ref.canonical,
                span[0] if span else None,
                span[1] if span else None,
                _role(ref, lex),
                "denies" if denied else "asserts",
                cue,
            )
        )
    return out


class QuotesStage:
    name = "corroborator.quotes.v1"

    def __call__(self, ctx: DocContext) -> None:
        ctx.extraction.quotes.extend(extract_quotes(ctx))
