"""Which referent speaks each quote: cue verbs, paragraphs, run-on quotations, echoes.

Attribution follows the order that works on news text: (1) a cue verb outside the quote in
the same sentence and its subject; (2) the other quotes of the paragraph; (3) a quotation
that runs on from the previous paragraph; (4) "X said:" or "X said that" in the sentence
before a paragraph-initial quote; (5) a headline repeating a quote from the body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.tokens import Doc, Token

from corroborator.nlp.pipeline import text_of
from corroborator.nlp.quotes.lexicon import FIRST_PERSON, Lexicon, cue_lemma, is_cue
from corroborator.nlp.quotes.marks import MarkedQuote
from corroborator.nlp.quotes.speakers import Discourse, Referent


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
    relayed = _quoted_as(cue)
    if relayed is not None:
        return relayed
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


def _quoted_as(cue: Token) -> Token | None:
    """ "The group quoted X as saying ...": X said it, not the group that relays it."""
    if cue.tag_ != "VBG":
        return None
    for anc in list(cue.ancestors)[:3]:
        if anc.lemma_.lower() == "quote":
            return next((c for c in anc.children if c.dep_ == "dobj"), None)
    return None


@dataclass
class Attribution:
    referent: Referent | None
    cue: Token | None = None
    how: str = ""
    mention: tuple[int, int] | None = None  # the words that point at the speaker


def segment_tokens(doc: Doc, start: int, end: int) -> list[Token]:
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
            if self.disc.inside[tok.i] or not is_cue(tok, self.lex):
                continue
            naming = self.lex.cues.get(cue_lemma(tok, self.lex) or "") == "names"
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
                return Attribution(ref, tok, "cue", self.disc.mention_span(subject))
        return speechless

    def _names(self, cue: Token, q: MarkedQuote) -> bool:
        """ "called the strike “...”", "branded it “...”": the quote is the verb's object
        or complement, not a phrasal use ("called for", "called up")."""
        if cue.dep_ == "acl" or any(c.dep_ == "prt" for c in cue.children):
            return False
        for t in segment_tokens(self.doc, q.start, q.end):
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
        words = segment_tokens(self.doc, q.start, q.end)
        return any(cue in t.ancestors for t in words)

    def own_cue(self, k: int) -> Attribution | None:
        q = self.quotes[k]
        same_para = [o for o in self.quotes if o.para == q.para]
        nxt = next((o.open_at for o in same_para if o.open_at > q.open_at), q.para_end)
        after_end = _sentence_stop(self.text, q.outer_end, nxt)
        after = segment_tokens(self.doc, q.outer_end, after_end)
        found = None
        if after and self._quote_ends_clause(q):
            found = self._cue_in(after[:30], nearest_last=False, q=q, far_governs=True)
        if found is not None and found.referent is not None:
            return found
        prev = max(
            (o.outer_end for o in same_para if o.outer_end <= q.open_at), default=q.para_start
        )
        before_start = _sentence_start(self.text, prev, q.open_at)
        before = segment_tokens(self.doc, before_start, q.open_at)
        return self._cue_in(before, nearest_last=True, q=q) or found

    def _quote_ends_clause(self, q: MarkedQuote) -> bool:
        """‘...,’ he said / “...?” she asked: the quote closes on punctuation or a dash follows."""
        inner = self.text[q.start : q.close_at] if q.close_at is not None else ""
        inner = inner.rstrip().rstrip("'’\"”").rstrip()  # a nested quote closing with it
        after = self.text[q.outer_end : q.outer_end + 2].strip()
        return bool(inner) and (inner[-1] in ",.?!…" or after[:1] in (",", "—", "–", "-"))

    def previous_sentence(self, q: MarkedQuote) -> Attribution | None:
        """'X said:' or 'X said that' closing the paragraph before a paragraph-initial quote."""
        if q.open_at != q.para_start:
            return self._reported_before(q)
        prev_para = self.text.rfind("\n", 0, q.para_start - 1)
        lo = prev_para + 1
        hi = q.para_start - 1
        if hi <= lo:
            return None
        inner = [o for o in self.quotes if lo <= o.open_at < hi]
        if inner and inner[-1].runs_on:
            return None
        start = _sentence_start(self.text, lo, max(hi - 1, lo))
        found = self._cue_in(segment_tokens(self.doc, start, hi), nearest_last=True, q=q)
        return found if found is not None and found.referent is not None else None

    def _reported_before(self, q: MarkedQuote) -> Attribution | None:
        """ "X said soldiers had shot her baby. “I begged them.”": a first-person quote right
        after a sentence reporting what X said carries on X's account."""
        if not FIRST_PERSON & set(re.findall(r"[a-z]+", self.text[q.start : q.end].lower())):
            return None
        lo = max(
            (o.outer_end for o in self.quotes if o.para == q.para and o.outer_end <= q.open_at),
            default=q.para_start,
        )
        hi = lo + len(self.text[lo : q.open_at].rstrip())
        if hi <= lo or self.text[hi - 1] not in ".!":
            return None
        start = _sentence_start(self.text, lo, hi - 1)
        found = self._cue_in(segment_tokens(self.doc, start, hi), nearest_last=True, q=q)
        if found is None or found.referent is None or found.cue is None:
            return None
        reported = any(c.dep_ == "ccomp" for c in found.cue.children)
        return found if reported else None

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
        for tok in segment_tokens(self.doc, start, hi):
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
                result[k] = Attribution(
                    result[donor].referent, None, "paragraph", result[donor].mention
                )
                continue
            cont = self._continued_from(k)
            if cont is not None and result[cont].referent is not None:
                result[k] = Attribution(
                    result[cont].referent, None, "continues", result[cont].mention
                )
                continue
            found = self.previous_sentence(q)
            if found is not None:
                result[k] = Attribution(found.referent, found.cue, "previous", found.mention)
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
            else:
                self._headline_echo(k, result)

    def _content(self, q: MarkedQuote) -> set[str]:
        return {
            t.lemma_.lower()
            for t in segment_tokens(self.doc, q.start, q.end)
            if t.is_alpha and not t.is_stop
        }

    def _headline_echo(self, k: int, result: list[Attribution]) -> None:
        """A headline quote paraphrases its main witness ("‘They took the men to the
        river’" over a story where one woman tells of men walked to a river): the speaker
        whose body quotes share most of its content words, two at least, with no tie."""
        q = self.quotes[k]
        toks = segment_tokens(self.doc, q.start, q.end)
        if not toks or not self.disc.caption[toks[0].i]:
            return
        words = self._content(q)
        pooled: dict[int, tuple[Referent, set[str]]] = {}
        for j, other in enumerate(self.quotes):
            ref = result[j].referent
            if j == k or ref is None:
                continue
            entry = pooled.setdefault(id(ref), (ref, set()))
            entry[1].update(self._content(other) & words)
        ranked = sorted(pooled.values(), key=lambda e: len(e[1]), reverse=True)
        if not ranked or len(ranked[0][1]) < 2:
            return
        if len(ranked) > 1 and len(ranked[1][1]) == len(ranked[0][1]):
            return
        result[k] = Attribution(ranked[0][0], None, "echo")

    def _continued_from(self, k: int) -> int | None:
        """The quote this paragraph-initial quote continues (British re-opened quotation)."""
        q = self.quotes[k]
        if q.open_at != q.para_start or k == 0:
            return None
        prev = self.quotes[k - 1]
        if not prev.runs_on or q.para - prev.para > 3:
            return None
        return k - 1
