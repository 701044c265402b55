"""NumbersStage on the example corpus, the seeds (when present) and varied casualty
sentences, negatives included."""

from __future__ import annotations

import datetime as dt

import pytest
from spacy.language import Language

from conftest import EXAMPLE_DOCS, read_documents, shared_path
from corroborator.models import VICTIM_GROUPS, Count
from corroborator.nlp.pipeline import DocContext, load_nlp
from corroborator.nlp.stages.numbers import NumbersStage, number_word_value

Row = tuple[str, int | None, int | None, bool, str | None, str | None]


@pytest.fixture(scope="module")
def nlp() -> Language:
    return load_nlp()


def counts(nlp: Language, text: str, published: dt.date | None = None) -> list[Count]:
    ctx = DocContext(doc=nlp(text), published=published)
    NumbersStage()(ctx)
    for c in ctx.extraction.counts:
        assert text[c.start : c.end] == c.text
        assert c.counted is None or c.counted in VICTIM_GROUPS
    return ctx.extraction.counts


def rows(found: list[Count]) -> list[Row]:
    return [(c.text, c.low, c.high, c.approx, c.outcome, c.counted) for c in found]


CASES: list[tuple[str, list[Row]]] = [
    (
        "They massacred between 300 and 400 people, including about 40 children.",
        [
            ("between 300 and 400 people", 300, 400, False, "killed", "civilians"),
            ("about 40 children", 40, 40, True, "killed", "children"),
        ],
    ),
    (
        "He said they had killed at least 60 injured prisoners of war.",
        [("at least 60 injured prisoners", 60, None, False, "killed", "prisoners_of_war")],
    ),
    (
        "Ukrainian forces have killed more than 11,000 Russian troops, he claimed.",
        [("more than 11,000 Russian troops", 11000, None, False, "killed", None)],
    ),
    (
        "Officials said hundreds of civilians were killed in the siege.",
        [("hundreds of civilians", 200, 999, True, "killed", "civilians")],
    ),
    (
        "Dozens of prisoners were executed, the report said.",
        [("Dozens of prisoners", 24, 99, True, "killed", "prisoners_of_war")],
    ),
    (
        "Twenty-two people died when the missile hit the market.",
        [("Twenty-two people", 22, 22, False, "killed", "civilians")],
    ),
    (
        "The strike killed three children and injured five or six others.",
        [
            ("three children", 3, 3, False, "killed", "children"),
            ("five or six others", 5, 6, False, "wounded", None),
        ],
    ),
    (
        "Russian military actions have killed 38 children and wounded more than 70.",
        [
            ("38 children", 38, 38, False, "killed", "children"),
            ("more than 70", 70, None, False, "wounded", None),
        ],
    ),
    (
        "At least 400 civilian deaths have been recorded and 800 wounded.",
        [
            ("At least 400 civilian deaths", 400, None, False, "killed", "civilians"),
            ("800", 800, None, False, "wounded", None),
        ],
    ),
    (
        "Up to 200 people may have died in the fire.",
        [("Up to 200 people", None, 200, False, "killed", "civilians")],
    ),
    (
        "About two hundred and fifty people were killed in the massacre.",
        [("About two hundred and fifty people", 250, 250, True, "killed", "civilians")],
    ),
    (
        "Nearly 1,000 soldiers were wounded, while some 300 civilians died.",
        [
            ("Nearly 1,000 soldiers", 1000, 1000, True, "wounded", None),
            ("some 300 civilians", 300, 300, True, "killed", "civilians"),
        ],
    ),
    (
        "Thousands of people have been killed since the war began.",
        [("Thousands of people", 2000, 9999, True, "killed", "civilians")],
    ),
    (
        "Russian officials acknowledged several hundred deaths among their forces.",
        [("several hundred deaths", 300, 999, True, "killed", None)],
    ),
    (
        "The death toll rose to 58, including 12 children.",
        [
            ("58", 58, 58, False, "killed", None),
            ("12 children", 12, 12, False, "killed", "children"),
        ],
    ),
    # the tally a verb takes to a figure; a comma ends what a figure counts
    (
        "A boy died overnight, raising the toll from Friday's shelling to 14, police said.",
        [("A boy", 1, 1, False, "killed", "children"), ("14", 14, 14, False, "killed", None)],
    ),
    (
        "Officials first put the toll at 11; two more of the injured died overnight.",
        [
            ("11", 11, 11, False, "killed", None),
            ("two", 2, 2, False, "killed", None),
        ],
    ),
    (
        "The bodies of two more fishermen were found, bringing the number of martyrs to seven.",
        [
            ("two more fishermen", 2, 2, False, "killed", None),
            ("seven", 7, 7, False, "killed", None),
        ],
    ),
    (
        "This included orders to execute three men who were walking past a storehouse.",
        [("three men", 3, 3, False, "killed", None)],
    ),
    (
        "Officials found the bodies of 41 people in a mass grave.",
        [("41 people", 41, 41, False, "killed", "civilians")],
    ),
    # the counted people are the killers, not the victims
    (
        "Ten soldiers killed 20 villagers in the raid.",
        [("20 villagers", 20, 20, False, "killed", "civilians")],
    ),
    # singular victims count only with a killing predicate
    (
        "A five-year-old girl was shot dead by a sniper.",
        [("A five-year-old girl", 1, 1, False, "killed", "children")],
    ),
    (
        "He said a child died of dehydration in the blockaded city.",
        [("a child", 1, 1, False, "killed", "children")],
    ),
    (
        "Police said a man was killed and two women were injured.",
        [
            ("a man", 1, 1, False, "killed", None),
            ("two women", 2, 2, False, "wounded", "women"),
        ],
    ),
    (
        "His comrade, a lieutenant, was killed by his own side.",
        [("His comrade", 1, 1, False, "killed", None)],
    ),
    # "killed or injured" is a casualty total: neither outcome
    (
        "The army claims to have killed or injured more than 45,000 members of the Russian forces.",
        [("more than 45,000 members", 45000, None, False, None, None)],
    ),
    (
        "A woman of 67 and a man of 71 were killed; a group of 40 residents was wounded.",
        [
            ("A woman", 1, 1, False, "killed", "women"),
            ("40 residents", 40, 40, False, "wounded", "civilians"),
        ],
    ),
    (
        "The shelling killed and wounded 20 people, while another 300 casualties were reported.",
        [
            ("20 people", 20, 20, False, None, "civilians"),
            ("300 casualties", 300, 300, False, None, None),
        ],
    ),
]

NEGATIVES = [
    "The 22-year-old soldier said he faced seven years in jail for desertion.",
    "Sergey was ordered to go to Bucha, about 34 kilometres away from Kyiv.",
    "A soldier from the 2nd Motor Rifle Division said he was afraid.",
    "Strikes have destroyed more than 200 schools, 34 hospitals and 1,500 buildings.",
    "Some 10,000 foreign students are trapped by the fighting.",
    "They paid $5 million to 300 families, and 40% of homes were damaged.",
    "She was five or six and he was fifteen years or older.",
    "One of the ex-mercenaries describes harrowing scenes, and no one answered.",
    "Two Russian commanders have admitted the claims in 2023.",
    "Tens of thousands of civilians fled the city after a 75-minute call.",
    "The man lost consciousness for about 20 minutes after the 24 hours of fighting.",
    "A woman in her 20s was helped by a lieutenant.",
    # ages told after one person: "a man of 71", "his wife, 72,"
    "The sniper wounded a man of 71 near the market.",
    "Rescuers carried out the owner, a pensioner of 80, and his wife, 72, alive.",
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_casualty_figures(nlp: Language, text: str, expected: list[Row]) -> None:
    assert rows(counts(nlp, text)) == expected


@pytest.mark.parametrize("text", NEGATIVES)
def test_non_casualty_numbers_are_skipped(nlp: Language, text: str) -> None:
    assert counts(nlp, text) == []


def test_number_words() -> None:
    assert number_word_value("Seven") == 7
    assert number_word_value("twenty") == 20
    assert number_word_value("several") is None


def test_example_figures(nlp: Language) -> None:
    """The casualty figures of the example corpus, as its gold file reads them."""
    docs = {r.source_file: r for r in read_documents(EXAMPLE_DOCS)}

    def got(name: str) -> list[Row]:
        doc = next(r for f, r in docs.items() if f.startswith(name))
        published = dt.date.fromisoformat(doc.published) if doc.published else None
        return rows(counts(nlp, doc.text, published))

    assert ("17 civilians", 17, 17, False, "killed", "civilians") in got("market_wire.txt")
    courier = got("market_courier.html")
    assert ("44 people", 44, 44, False, "wounded", "civilians") in courier
    assert any(r[1:5] == (21, 21, False, "killed") for r in courier)
    assert not any(r[1] in (29, 2014, 10) for r in courier)  # an age, a year, a time
    feature = got("oicha_feature.txt")
    assert feature == [("between 120 and 150 people", 120, 150, False, "killed", "civilians")]
    un = got("monitor.warc.gz:https://greatlakesradio")
    assert ("138 people", 138, 138, False, "killed", "civilians") in un
    school = got("monitor.warc.gz:https://sahelnile")
    assert ("about 30 children", 30, 30, True, "killed", "children") in school
    assert ("at least 18 other pupils and three teachers", 21, None, False, "wounded", None) in (
        school
    )
    report = got("balakliia_report.txt")
    assert ("At least two detainees", 2, None, False, "killed", "detainees") in report
    assert not any(r[1] in (40, 23, 36) for r in report)  # held, interviewed, days
    pows = got("bulletin-vuhledar-case")
    assert pows == [("four Ukrainian prisoners", 4, 4, False, "killed", "prisoners_of_war")]


def test_seed_figures(nlp: Language) -> None:
    """The casualty figures of the seed articles, as the gold file reads them."""
    seeds = shared_path("seeds")
    text000 = (seeds / "000_fb352e0b2e3a6033.txt").read_text("utf-8")
    got = rows(counts(nlp, text000))
    assert ("between 300 and 400 people", 300, 400, False, "killed", "civilians") in got
    assert ("about 70 Russian inmates", 70, 70, True, "killed", None) in got
    assert any(r[1:5] == (60, None, False, "killed") for r in got)
    assert all(r[1] not in (15, 12, 9) for r in got)  # ages, dates and floors are not counts
    text002 = (seeds / "002_90e90ac23471b7a4.txt").read_text("utf-8")
    got = rows(counts(nlp, text002))
    assert ("at least 400 civilian deaths", 400, None, False, "killed", "civilians") in got
    assert ("800", 800, None, False, "wounded", None) in got
    assert ("a child", 1, 1, False, "killed", "children") in got
    assert not any(r[1] in (7, 200, 34, 1500, 10000, 100) for r in got)
    text003 = (seeds / "003_642f29f2fc08dedb.txt").read_text("utf-8")
    got = rows(counts(nlp, text003))
    assert ("At least 458 people", 458, None, False, "killed", "civilians") in got
    assert ("three men", 3, 3, False, "killed", None) in got
    assert not any(r[1] in (34, 22, 20) for r in got)
    assert ("more than 45,000 members", 45000, None, False, None, None) in got


def test_conjoined_counts_of_one_predicate_sum(nlp: Language) -> None:
    """'Six pupils and a teacher... were killed' is one toll; soldiers are kept apart."""
    got = rows(counts(nlp, "Six pupils and three teachers were killed when the roof fell."))
    assert ("Six pupils and three teachers", 9, 9, False, "killed", None) in got
    apart = rows(counts(nlp, "Four soldiers and two civilians were killed at the crossing."))
    assert all(r[1] != 6 for r in apart)
