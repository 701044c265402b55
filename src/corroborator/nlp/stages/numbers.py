"""Numbers stage: casualty figures -> Count records {low, high, approx, outcome, counted}.

A small grammar over tokens reads the quantifier phrase ("between 300 and 400",
"at least 60", "about 40", "five or six", "twenty-two", "hundreds of", "several hundred");
the dependency parse then finds what is counted (the noun the number modifies) and what
happened to it (the nearest predicate: killed, died, deaths, wounded, injured).

Conventions (lexicons in nlp/lexicons/numbers_*): "more than N"/"at least N" are low N,
high null (the stated figure is kept, as ACLED/UCDP do, not N+1); "up to N"/"as many as N"
are low null, high N; "about N" is N/N approx; vague plurals are at least two units and
below the next unit up ("dozens" 24/99, "hundreds" 200/999, "thousands" 2000/9999), approx.
Only figures about people are kept: numbers that count things (schools, phones), measures
(km, hours, years, %), ages ("22-year-old") and ordinals are skipped, and a number with no
counted person needs a casualty predicate. A singular person ("a child", "the lieutenant")
counts as 1 only as the direct victim of a killing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from spacy.tokens import Doc, Token

from corroborator.models import Count
from corroborator.nlp import lexicon
from corroborator.nlp.columns import lower_at
from corroborator.nlp.lexicon import load_json as load_lexicon
from corroborator.nlp.pipeline import DocContext, text_of

_DIGITS = re.compile(r"^(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$")
_RANGE_WORDS = {"or", "to", "-", "–", "—"}
_SKIP_ENTS = {"MONEY", "PERCENT", "QUANTITY", "ORDINAL", "TIME", "DATE"}
_DETS = {"the", "his", "her", "their", "our", "its", "these", "those", "my", "your"}
_ONE_DETS = {"a", "an", "the", "one", "his", "her", "their", "our", "my", "your"}
_PASS_DEPS = {"amod", "compound", "nummod", "quantmod", "advmod", "det", "poss", "nmod", "punct"}
_PASS_DEPS |= {"npadvmod", "case"}
_CASUALTY_NOUNS = {"casualty", "victim"}
_CLAUSE_ENDS = {",", ";", ":", ".", "!", "?"}
CASUALTIES = "casualties"  # internal: killed and wounded together; exported as outcome None
TALLY_NOUNS = {"toll", "number", "count", "tally", "figure"}
_BARE_OUTCOMES = {"dead", "killed", "wounded", "injured"}
_SUBJ_DEPS = {"nsubj", "nsubjpass", "dobj"}


_lines = lexicon.rows


@cache
def _words() -> dict[str, int]:
    return {k: int(v) for k, v in _lines("numbers_words.tsv")}


@cache
def _vague() -> dict[tuple[str, ...], tuple[int, int]]:
    return {tuple(k.split()): (int(lo), int(hi)) for k, lo, hi in _lines("numbers_vague.tsv")}


@cache
def _quantifiers() -> dict[tuple[str, ...], str]:
    return {tuple(k.split()): v for k, v in _lines("numbers_quantifiers.tsv")}


@cache
def _mapping(name: str) -> dict[str, str]:
    return {row[0]: row[1] for row in _lines(name)}


@cache
def _wordset(name: str) -> frozenset[str]:
    return frozenset(row[0] for row in _lines(name))


def number_word_value(word: str) -> int | None:
    """Value of one number word ("seven" -> 7), for other stages too."""
    return _words().get(word.lower())


@dataclass(frozen=True)
class _Figure:
    start: int  # token indices, end exclusive
    end: int
    low: int | None
    high: int | None
    approx: bool
    anchor: int  # the token that carries the number in the parse
    quantified: bool = False  # a quantifier ("at least", "about") came first


def _digits(tok: Token) -> float | None:
    if not _DIGITS.match(tok.text):
        return None
    return float(tok.text.replace(",", ""))


def _numeral(doc: Doc, i: int) -> tuple[int, int, int, bool] | None:
    """An exact or vague number at token i -> (end, low, high, vague)."""
    for size in (4, 3, 2, 1):
        key = tuple(lower_at(doc, i + k) for k in range(size))
        if key in _vague():
            lo, hi = _vague()[key]
            return i + size, lo, hi, True
    if i >= len(doc):
        return None
    words = _words()
    value = _digits(doc[i])
    if value is not None:
        j = i + 1
        while lower_at(doc, j) in words and words[lower_at(doc, j)] >= 100:
            value *= words[lower_at(doc, j)]
            j += 1
        if value != int(value):
            return None
        return j, int(value), int(value), False
    return _number_words(doc, i)


def _number_words(doc: Doc, i: int) -> tuple[int, int, int, bool] | None:
    """ "twenty-two", "one hundred and fifty", "a hundred", "two dozen"."""
    words = _words()
    j = i
    if lower_at(doc, i) in ("a", "an") and words.get(lower_at(doc, i + 1), 0) >= 12:
        j = i + 1
    total = current = 0
    seen = False
    while j < len(doc):
        w = lower_at(doc, j)
        if w in words:
            v = words[w]
            if v == 12 or v == 100:
                current = (current or 1) * v
            elif v >= 1000:
                total += (current or 1) * v
                current = 0
            else:
                current += v
            seen = True
            j += 1
        elif seen and w in ("-", "and") and lower_at(doc, j + 1) in words:
            if w == "and" and words[lower_at(doc, j + 1)] >= 100:
                break
            j += 1
        else:
            break
    if not seen:
        return None
    value = total + current
    return j, value, value, False


@cache
def _figure_starts() -> frozenset[str]:
    """Every word but digits that a figure can begin with: `_figure` is tried at each token,
    and a test of the first word spares the lookups of the rest (1.5 s per 240 texts)."""
    keys = [*_quantifiers(), *_vague()]
    return frozenset({"between", "from", "a", "an", *_words(), *(k[0] for k in keys if k)})


def _figure(doc: Doc, i: int) -> _Figure | None:
    """A quantifier phrase at token i: [quantifier] N [(or|to|-) M] | between N and M."""
    first = lower_at(doc, i)
    if first not in _figure_starts() and not _DIGITS.match(first):
        return None
    if first in ("between", "from"):
        a = _numeral(doc, i + 1)
        link = "and" if lower_at(doc, i) == "between" else "to"
        if a and lower_at(doc, a[0]) in (link, "-", "–"):
            b = _numeral(doc, a[0] + 1)
            if b:
                return _Figure(i, b[0], a[1], b[2], a[3] or b[3], b[0] - 1)
        return None
    mode = None
    j = i
    for size in (3, 2, 1):
        key = tuple(lower_at(doc, i + k) for k in range(size))
        if key in _quantifiers():
            mode, j = _quantifiers()[key], i + size
            break
    a = _numeral(doc, j)
    if a is None:
        return None
    end, approx = a[0], a[3]
    low: int | None = a[1]
    high: int | None = a[2]
    if lower_at(doc, end) in _RANGE_WORDS:
        b = _numeral(doc, end + 1)
        if b is not None and b[1] > a[1]:
            end, high = b[0], b[2]
            approx = approx or b[3]
    if mode == "min":
        high = None
    elif mode == "max":
        low = None
    elif mode == "approx":
        approx = True
    return _Figure(i, end, low, high, approx, end - 1, mode is not None)


def _is_unit(doc: Doc, i: int) -> bool:
    """Measures, ages and money right after the number ("34 kilometres", "22-year-old")."""
    j = i + (lower_at(doc, i) in ("-", "–"))
    if j >= len(doc):
        return False
    units = _wordset("numbers_units.txt")
    return doc[j].lower_ in units or doc[j].lemma_.lower() in units


def _person_kind(tok: Token) -> str | None:
    """'group' / 'person' / 'casualty' / 'outcome' for a counted noun, None for things."""
    lemma, low = tok.lemma_.lower(), tok.lower_
    if lemma in _mapping("numbers_groups.tsv") or low in _mapping("numbers_groups.tsv"):
        return "group"
    if lemma in _CASUALTY_NOUNS:
        return "casualty"
    if lemma in _mapping("numbers_outcomes.tsv") and tok.pos_ == "NOUN":
        return "outcome"
    counted = _wordset("numbers_persons.txt")
    if any(w in lexicon.person_lemmas() or w in counted for w in (lemma, low)):
        return "person"
    if tok.ent_type_ == "NORP" and tok.tag_ in ("NNPS", "NNS", "NNP"):
        return "person"
    return None


def _counted_noun(doc: Doc, end: int) -> Token | None:
    """The noun a figure counts: the next noun after modifiers, or after "of [the]"."""
    j = end
    if lower_at(doc, j) == "of":
        j += 1
        while lower_at(doc, j) in _DETS:
            j += 1
    for k in range(j, min(j + 6, len(doc))):
        tok = doc[k]
        if tok.text in _CLAUSE_ENDS:
            return None  # "raising the toll to six, prosecutors said"
        if tok.pos_ in ("NOUN", "PROPN") or tok.ent_type_ == "NORP":
            nxt = doc[k + 1] if k + 1 < len(doc) else None
            modifier = tok.dep_ in ("compound", "amod", "nmod") and tok.head.i > k
            if nxt is not None and nxt.pos_ in ("NOUN", "PROPN", "ADJ") and modifier:
                continue
            return tok
        if tok.dep_ in _PASS_DEPS or tok.pos_ in ("ADJ", "ADV") or tok.text in ("-", "–"):
            continue
        return None
    return None


def outcome_word(tok: Token) -> str | None:
    """What a word says happened to the people it counts (killed, wounded, ...), if anything."""
    return _mapping("numbers_outcomes.tsv").get(tok.lemma_.lower()) or _mapping(
        "numbers_outcomes.tsv"
    ).get(tok.lower_)


def _has_object(verb: Token) -> bool:
    return any(c.dep_ in ("dobj", "obj") for c in verb.children)


def _verb_outcome(verb: Token, via: Token) -> str | None:
    """Outcome of a predicate for the people reached through `via`: None when they are its
    agents; CASUALTIES for "killed or injured N" (a total that is neither)."""
    if via.dep_ == "agent" or (via.dep_ == "nsubj" and _has_object(verb)):
        return None
    outcome = outcome_word(verb)
    if outcome is None and any(c.lower_ == "dead" for c in verb.children):
        outcome = "killed"
    if outcome is None:
        return _toll_outcome(verb, via)
    partners = [c for c in verb.children if c.dep_ == "conj"]
    if verb.dep_ == "conj":
        partners.append(verb.head)
    for other in partners:
        shared = not any(c.dep_ == via.dep_ for c in other.children)
        if outcome_word(other) not in (None, outcome) and shared:
            return CASUALTIES
    return outcome


def _toll_outcome(verb: Token, via: Token) -> str | None:
    """ "the death toll rose to 58": the figure belongs to the subject's tally; "raising
    the death toll to six", "bringing the number of dead to 46", "put the toll at 11": to
    the tally the verb takes to it."""
    tallies = ["nsubj", "nsubjpass"] + (["dobj", "obj"] if via.lower_ in ("to", "at") else [])
    for subj in (c for c in verb.children if c.dep_ in tallies):
        if subj.lemma_.lower() in TALLY_NOUNS:
            words = (outcome_word(t) for t in subj.subtree if t is not subj)
            return next((w for w in words if w), "killed" if subj.lower_ == "toll" else None)
    return None


def _following_predicate(head: Token) -> str | None:
    """ "20 people dead", "800 wounded", "troops have been killed" read linearly, because
    the parse often hangs such a clause on the wrong verb."""
    doc = head.doc
    j = head.i + 1
    while j < len(doc) and doc[j].dep_ in ("aux", "auxpass") and doc[j].lower_ != "not":
        j += 1
    if j >= len(doc) or (j == head.i + 1 and doc[j].lower_ not in _BARE_OUTCOMES):
        return None
    if doc[j].pos_ in ("VERB", "ADJ") and not any(c.dep_ == "neg" for c in doc[j].children):
        return outcome_word(doc[j]) if not _has_object(doc[j]) else None
    return None


def _outcome(anchor: Token, noun: Token | None) -> str | None:
    """What happened to the counted people, read from the parse around them."""
    head = noun if noun is not None else anchor
    if noun is not None and _person_kind(noun) == "outcome":
        return outcome_word(noun)
    following = _following_predicate(head)
    if following is not None:
        return following
    for child in head.children:
        if child.dep_ in ("relcl", "acl") and outcome_word(child):
            return _verb_outcome(child, head)
    via = head
    for anc in head.ancestors:
        if anc.pos_ in ("VERB", "AUX") and anc.dep_ not in ("prep", "agent"):
            return _verb_outcome(anc, via)
        if outcome_word(anc) and anc.pos_ == "NOUN":
            return outcome_word(anc)
        via = anc
    for child in head.children:
        if child.dep_ == "amod" and outcome_word(child):
            return outcome_word(child)
    return None


def _group(noun: Token | None) -> str | None:
    """Victim group of the counted noun, or of its modifier when it counts deaths
    ("400 civilian deaths")."""
    if noun is None:
        return None
    groups = _mapping("numbers_groups.tsv")
    group = groups.get(noun.lemma_.lower()) or groups.get(noun.lower_)
    if group is None and _person_kind(noun) in ("outcome", "casualty"):
        mods = (c for c in noun.children if c.dep_ in ("amod", "compound") and c.i < noun.i)
        group = next((groups[m.lemma_.lower()] for m in mods if m.lemma_.lower() in groups), None)
    return group


def _skip_figure(doc: Doc, fig: _Figure) -> bool:
    tok = doc[fig.anchor]
    if tok.ent_type_ in _SKIP_ENTS - {"DATE"} or _is_unit(doc, fig.end) or _age(doc, fig):
        return True
    return re.fullmatch(r"\d{4}", tok.text) is not None and tok.ent_type_ == "DATE"


def _age(doc: Doc, fig: _Figure) -> bool:
    """A person's age told after them: "a man of 71", "his wife, 72, ..." (one person, so
    the number counts no one)."""
    if fig.start < 2 or fig.low != fig.high or fig.low is None or fig.low > 120:
        return False
    if _counted_noun(doc, fig.end) is not None:
        return False  # "a group of 40 people"
    before, person = doc[fig.start - 1], doc[fig.start - 2]
    singular = person.tag_ == "NN" and _person_kind(person) in ("person", "group")
    if before.lower_ == "of":
        return singular
    after = lower_at(doc, fig.end)
    return before.text == "," and singular and (after in {",", ".", ")", "and"})


def _shares_floor(doc: Doc, fig: _Figure, floor: _Figure | None) -> bool:
    """ "at least 400 deaths have been recorded and 800 wounded": the floor covers both."""
    if (
        floor is None
        or fig.quantified
        or fig.low != fig.high
        or lower_at(doc, fig.start - 1) != "and"
    ):
        return False
    close = 0 < fig.start - floor.end <= 8
    return close and doc[fig.start].sent.start == doc[floor.start].sent.start


def _numeric_counts(doc: Doc) -> list[Count]:
    out: list[Count] = []
    floor: _Figure | None = None
    i = 0
    while i < len(doc):
        fig = _figure(doc, i)
        if fig is None or _skip_figure(doc, fig):
            i += 1
            continue
        i = fig.end
        if _shares_floor(doc, fig, floor):
            fig = replace(fig, high=None)
        if fig.quantified and fig.high is None:
            floor = fig
        noun = _counted_noun(doc, fig.end)
        kind = _person_kind(noun) if noun is not None else None
        if noun is not None and kind is None:
            continue  # counts things
        if kind is None and doc[fig.anchor].ent_type_ == "DATE":
            continue  # "five or six" as an age
        single = fig.low == fig.high == 1 and doc[fig.start].lower_ in ("one", "a", "an")
        if single and (noun is None or _outcome(doc[fig.anchor], noun) != "killed"):
            continue  # "one of them", "no one": singular victims need a killing
        outcome = _outcome(doc[fig.anchor], noun)
        group = _group(noun)
        if outcome is None and kind != "casualty":
            continue
        outcome = None if outcome == CASUALTIES else outcome
        last = noun.i + 1 if noun is not None else fig.end
        span = doc[fig.start : last]
        out.append(
            Count(
                span.start_char,
                span.end_char,
                span.text,
                fig.low,
                fig.high,
                fig.approx,
                outcome,
                group,
            )
        )
    return out


def _singular_victims(doc: Doc, taken: set[int]) -> list[Count]:
    """ "a child died", "killing a child", "the lieutenant was killed": one person killed."""
    out: list[Count] = []
    counted: set[int] = set()
    for tok in doc:
        if tok.dep_ == "appos" and tok.head.i in counted:
            continue  # "his comrade, a lieutenant, was killed" is one person
        if tok.i in taken or tok.tag_ != "NN" or _person_kind(tok) not in ("group", "person"):
            continue
        if not any(c.lower_ in _ONE_DETS for c in tok.children if c.dep_ in ("det", "poss")):
            continue
        subject = tok.head if tok.dep_ == "appos" else tok
        if subject.dep_ not in _SUBJ_DEPS:
            continue
        nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
        if nxt is not None and nxt.lower_ in ("killed", "dead") and nxt.dep_ != "amod":
            outcome: str | None = "killed"
        elif subject.head.pos_ in ("VERB", "AUX") and subject.dep_ != "pobj":
            outcome = _verb_outcome(subject.head, subject)
        else:
            outcome = None
        if outcome != "killed":
            continue
        span = doc[tok.left_edge.i : tok.i + 1]
        counted.add(tok.i)
        out.append(
            Count(span.start_char, span.end_char, span.text, 1, 1, False, "killed", _group(tok))
        )
    return out


@cache
def _combatant_lemmas() -> frozenset[str]:
    return frozenset(load_lexicon("incident_roles.json")["combatants"])


def _conjoined_totals(doc: Doc, counts: list[Count]) -> list[Count]:
    """ "Eight children and two teachers were killed": one toll of ten, told in parts.
    Parts that count combatants are left apart: a civilian toll must not absorb them."""
    out: list[Count] = []
    roots: list[tuple[Count, Token]] = []
    for c in counts:
        span = doc.char_span(c.start, c.end)
        if span is not None and len(span):
            roots.append((c, span.root))
    i = 0
    while i < len(roots):
        chain = [roots[i]]
        while i + len(chain) < len(roots):
            nxt_c, nxt = roots[i + len(chain)]
            prev_c, prev = chain[-1]
            if nxt.dep_ != "conj" or nxt.head.i not in {t.i for _, t in chain}:
                break
            if nxt_c.outcome != prev_c.outcome:
                break
            chain.append((nxt_c, nxt))
        i += max(1, len(chain))
        parts = [c for c, _ in chain]
        soldiers = any(t.lemma_.lower() in _combatant_lemmas() for _, t in chain)
        if len(parts) < 2 or soldiers or any(c.low is None for c in parts):
            continue
        highs = [c.high for c in parts]
        first, last = parts[0], parts[-1]
        groups = {c.counted for c in parts}
        out.append(
            Count(
                first.start,
                last.end,
                text_of(doc)[first.start : last.end],
                sum(c.low or 0 for c in parts),
                None if None in highs else sum(h or 0 for h in highs),
                any(c.approx for c in parts),
                first.outcome,
                groups.pop() if len(groups) == 1 else None,
            )
        )
    return out


class NumbersStage:
    """Token grammar for figures, dependency parse for what is counted and what happened."""

    name = "corroborator.numbers.v1"

    def __call__(self, ctx: DocContext) -> None:
        doc = ctx.doc
        counts = _numeric_counts(doc)
        taken = {t.i for c in counts for t in doc.char_span(c.start, c.end) or []}
        counts += _singular_victims(doc, taken)
        counts += _conjoined_totals(doc, sorted(counts, key=lambda c: c.start))
        ctx.extraction.counts.extend(sorted(counts, key=lambda c: c.start))
