"""Word lists and token tests shared by the quote stage's modules.

The lists live as data files in `lexicons/quotes_*.txt`; the token tests guard against the
small tagger's odd lemmas, so every module asks the same question the same way.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Token

from corroborator.nlp.lexicon import PersonNoun, persons
from corroborator.nlp.lexicon import rows as lexicon_rows

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
    return (list(row) for row in lexicon_rows(name))


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """Word lists, loaded once from the lexicon data files."""
    return Lexicon(
        cues={r[0]: (r[1] if len(r) > 1 else "") for r in _lines("quotes_cues.txt")},
        persons=persons(),
        violence=frozenset(r[0] for r in _lines("quotes_violence.txt")),
        denials=tuple(r[0] for r in _lines("quotes_denials.txt")),
        official_orgs={
            r[0]: (r[1] if len(r) > 1 else "") for r in _lines("quotes_official_orgs.txt")
        },
        denial_nouns=frozenset(r[0] for r in _lines("quotes_denial_nouns.txt")),
        allegations=frozenset(r[0] for r in _lines("quotes_allegation_nouns.txt")),
        units=frozenset(r[0] for r in _lines("quotes_units.txt")),
    )


def is_cue(tok: Token, lex: Lexicon) -> bool:
    if tok.lower_ == "according":
        return tok.i + 1 < len(tok.doc) and tok.doc[tok.i + 1].lower_ == "to"
    return tok.pos_ in ("VERB", "AUX") and cue_lemma(tok, lex) is not None


def _lemma_in(tok: Token, words: Container[str]) -> str | None:
    """The verb's lemma in `words`, guarding against the tagger's odd lemmas (raging -> rag,
    raped -> rap)."""
    low = tok.lower_
    forms = [tok.lemma_.lower(), low]
    for suffix, repl in (("ing", "e"), ("ing", ""), ("ed", "e"), ("ed", ""), ("s", "")):
        if low.endswith(suffix):
            forms.append(low[: -len(suffix)] + repl)
    return next((f for f in forms if f in words), None)


def cue_lemma(tok: Token, lex: Lexicon) -> str | None:
    if tok.lower_ == "according":
        return "according to"
    return _lemma_in(tok, lex.cues)


def violent(tok: Token, lex: Lexicon) -> bool:
    return _lemma_in(tok, lex.violence) is not None
