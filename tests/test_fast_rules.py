"""The pipeline annotates exactly as the model as shipped, though its networks multiply
with numpy's BLAS instead of BLIS and its attribute ruler and lemmatizer are indexed
ones: compared on the project's texts and on the constructions the ruler's rarer rules
are for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.attrs import DEP, ENT_IOB, ENT_TYPE, HEAD, LEMMA, MORPH, POS, SENT_START, TAG

from corroborator.nlp import fast_rules, geotagger
from corroborator.nlp.pipeline import SPACY_MODEL, load_nlp

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = [TAG, POS, MORPH, LEMMA, DEP, HEAD, ENT_IOB, ENT_TYPE, SENT_START]
# "gonna", "y'all", "ain't", "let's", "c'mon", pronouns as subjects and objects, "there
# is", runs of spaces and blank lines: the rules that are not one-token tag/word tests
RARE = (
    "I told you it was gonna rain, y'all.  They ain't coming, so let's go.\n\n"
    "C'mon, there is no time; it hit him and he saw it.   We got ta leave, but I did.\n"
    "What they did to me, I do not know. Which ones did you see?  \n\n  That one."
)


@pytest.fixture(scope="module")
def shipped() -> spacy.language.Language:
    nlp = spacy.load(SPACY_MODEL)
    nlp.add_pipe("newline_sentences", before="parser")
    geotagger.add_ruler(nlp)
    return nlp


def texts() -> list[str]:
    paths = sorted((ROOT / "examples").rglob("*.txt"))
    paths += sorted((ROOT / "tests" / "fixtures" / "retellings").rglob("*.txt"))[:40]
    return [RARE] + [p.read_text(encoding="utf-8", errors="replace") for p in paths]


def test_same_annotations_as_spacy(shipped: spacy.language.Language) -> None:
    nlp = load_nlp()
    assert not nlp.get_pipe("ner").model.ops.use_blis  # type: ignore[attr-defined]
    assert shipped.get_pipe("ner").model.ops.use_blis  # type: ignore[attr-defined]
    assert isinstance(nlp.get_pipe("attribute_ruler"), fast_rules.IndexedAttributeRuler)
    assert isinstance(nlp.get_pipe("lemmatizer"), fast_rules.RememberingLemmatizer)
    assert nlp.pipe_names == shipped.pipe_names
    sample = texts()
    assert len(sample) > 30
    for text, mine, theirs in zip(sample, nlp.pipe(sample), shipped.pipe(sample), strict=True):
        assert (mine.to_array(COLUMNS) == theirs.to_array(COLUMNS)).all(), text[:60]
        assert [(t.lemma_, str(t.morph), t.pos_) for t in mine] == [
            (t.lemma_, str(t.morph), t.pos_) for t in theirs
        ], text[:60]


def test_rare_rules_fire() -> None:
    """The rules the Matcher still runs and the set tests do change tokens here."""
    doc = load_nlp()(RARE)
    lemmas = {t.lower_: t.lemma_ for t in doc}
    assert lemmas["gon"] == "go" and lemmas["na"] == "to"
    assert lemmas["ai"] == "be"
    assert any(t.is_space and t.pos_ == "SPACE" for t in doc)
    subject_i = [t for t in doc if t.lower_ == "i" and t.dep_ == "nsubj"]
    assert subject_i and all("Case=Nom" in str(t.morph) for t in subject_i)


def test_empty_and_whitespace_documents() -> None:
    nlp = load_nlp()
    assert len(nlp("")) == 0
    assert [t.pos_ for t in nlp("   \n\n  ")] == ["SPACE"]


def test_one_blas_thread_per_process_unless_set() -> None:
    """Workers are processes: each gets one BLAS thread, and a user's own setting wins."""
    code = "import os, corroborator; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    unset = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    mine = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "OPENBLAS_NUM_THREADS": "3"},
        capture_output=True,
        text=True,
    )
    assert (unset.stdout.strip(), mine.stdout.strip()) == ("1", "3")
