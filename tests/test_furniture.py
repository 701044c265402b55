"""Page furniture in plain text is left out of the working text; offsets still map back."""

from __future__ import annotations

import json
from pathlib import Path

from corroborator.ingest.furniture import furniture_ranges
from corroborator.ingest.normalize import normalize, to_original
from corroborator.storage.db import open_store

PAGE = """Skip to main content
World  Europe  Business  Opinion  Video  Podcasts
Sign in | Subscribe
Support independent reporting – donate today
Tuesday 7 May 2024
By Irena Solovei
3 min read
Share
Shelling kills three at a water point in Orikhiv
Three residents of Orikhiv were killed on Tuesday when artillery shells struck a queue at a water distribution point, the Zaporizhzhia regional administration said.
"People were filling bottles when the first shell landed," a local council member told reporters.
Advertisement
The town, close to the front line, has had no running water since the spring.
Read more
Wheat prices climb as export routes close
Five questions about the new energy law
We use cookies to improve your experience. By using this site you accept our cookie policy.
© 2024 The Eastern Courier. All rights reserved.
"""

BODY_LINES = [
    "Shelling kills three at a water point in Orikhiv",
    "Three residents of Orikhiv were killed on Tuesday when artillery shells struck a queue",
    '"People were filling bottles when the first shell landed," a local council member',
    "The town, close to the front line, has had no running water since the spring.",
]
FURNITURE_LINES = [
    "Skip to main content",
    "World  Europe  Business",
    "Sign in | Subscribe",
    "Support independent reporting",
    "Tuesday 7 May 2024",
    "By Irena Solovei",
    "3 min read",
    "Share",
    "Advertisement",
    "Read more",
    "Wheat prices climb",
    "Five questions about",
    "We use cookies",
    "All rights reserved",
]


def _clean(raw: str) -> tuple[str, list[tuple[int, int]]]:
    return normalize(raw, drop=furniture_ranges(raw))


def test_page_furniture_is_dropped_and_the_article_kept() -> None:
    text, _ = _clean(PAGE)
    for line in BODY_LINES:
        assert line in text
    for line in FURNITURE_LINES:
        assert line not in text, line
    assert text.startswith("Shelling kills three")  # the headline leads the working text


def test_working_offsets_map_back_to_the_original_words() -> None:
    raw = PAGE.replace("Orikhiv were", "Orikhiv\u00a0were")  # normalisation and a cut together
    text, points = _clean(raw)
    for word in ("Three residents", "water distribution", "running water since"):
        start = text.index(word)
        original = to_original(start, points)
        assert raw[original : original + len(word)] == word


def test_article_text_without_furniture_is_untouched() -> None:
    wire = (
        "Russian forces shelled the centre of Kherson on Sunday, killing two people.\n"
        "Q: Were you at the market?\n"
        "A: Yes, I was buying bread when it started.\n"
        "Governor Oleksandr Prokudin said a bus stop and a pharmacy were hit.\n"
        "Reuters could not verify the claims.\n"
    )
    assert furniture_ranges(wire) == []
    one_line = "An excerpt cut mid-sentence with no line breaks at all, of the kind a scraper"
    assert furniture_ranges(one_line) == []


def test_ingest_drops_furniture_from_text_and_jsonl_but_archives_it(cli, db: Path, tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    records = tmp_path / "feed.jsonl"
    records.write_text(json.dumps({"id": "feed-1", "text": PAGE}) + "\n", encoding="utf-8")
    result = cli("ingest", "--quiet", "--no-extract", str(page), str(records))
    assert result.exit_code == 0, result.output
    out = cli("export", "--what", "documents", "--format", "jsonl")
    docs = {d["source_file"]: d for d in map(json.loads, out.output.splitlines())}
    assert set(docs) == {"page.txt", "feed-1"}
    for doc in docs.values():
        assert "Support independent reporting" not in doc["text"]
        assert "Three residents of Orikhiv" in doc["text"]
    assert Path(docs["page.txt"]["archive_path"]).read_bytes() == PAGE.encode("utf-8")
    stored = open_store(str(db)).documents()
    row = next(d for d in stored if d["source_file"] == "page.txt")
    points = [tuple(p) for p in json.loads(row["offset_map"])]
    start = row["text"].index("Three residents")
    assert PAGE[to_original(start, points) :].startswith("Three residents")


def _kept(text: str) -> str:
    out, pos = [], 0
    for start, end in furniture_ranges(text):
        out.append(text[pos:start])
        pos = end
    return "".join(out) + text[pos:]


def test_a_paragraph_ending_in_markup_and_a_subhead_are_text() -> None:
    text = (
        "Shelling of Orikhiv\n"
        "Rockets struck the hospital in Orikhiv on 2 March 2024, killing two nurses and "
        "wounding five patients, the regional governor wrote. <img src=x>\n"
        "Evacuation of patients\n"
        "Doctors moved the remaining patients to a clinic in Zaporizhzhia overnight, staff said.\n"
        "Share\n"
    )
    kept = _kept(text)
    assert "killing two nurses" in kept and "Evacuation of patients\n" in kept
    headline = "Orikhiv hospital strike: toll rises to 4 as families search for missing\n"
    assert _kept(headline + text).startswith(headline)
    assert "Share" not in kept


def test_russian_and_ukrainian_lines_keep_their_quotes_and_disclaimers() -> None:
    text = (
        "Обстрел Харькова\n"
        "Российские войска обстреляли жилой квартал Харькова утром 3 мая, погибли четыре "
        "человека, сообщил губернатор области.\n"
        "«Спасатели продолжают разбирать завалы», — сказал губернатор.\n"
        "Це відео не вдалося незалежно перевірити.\n"
        "Поделиться\n"
    )
    kept = _kept(text)
    assert kept.startswith("Обстрел Харькова\n")  # a two-word headline
    assert "«Спасатели" in kept and "перевірити." in kept


EXCERPT = """Home | World | Africa
Support independent journalism
Updated 09:40 GMT, 12 April
Drone strike hits aid convoy near Tawila
A drone struck a convoy of four aid lorries near Tawila on Friday, killing three drivers and
wounding two guards, the relief agency that hired them said on Saturday.
"They were carrying flour and nothing else," the agency's country director said.
The agency said the convoy had been cleared by both sides the day before and that its
route had been shared with the commanders of the units holding the road, but the
"""


def test_a_hard_wrapped_excerpt_cut_mid_sentence_is_kept_whole() -> None:
    """Wrapped lines that end mid-sentence, and the excerpt's last sentence cut short, are
    the article: only the menu, notice and time stamp above it go."""
    cleaned, ranges = _clean(EXCERPT)
    assert cleaned.startswith("Drone strike hits aid convoy near Tawila")
    for words in ("killing three drivers and", "wounding two guards", "route had been shared"):
        assert words in cleaned
    assert cleaned.rstrip().endswith("holding the road, but the")
    dropped = " ".join(EXCERPT[a:b] for a, b in ranges)
    assert "Support independent" in dropped and "09:40" in dropped and "Home |" in dropped


def test_a_cut_line_after_the_body_is_kept_but_trailing_notices_go() -> None:
    body = EXCERPT.split("The agency said")[0]
    kept = _clean(body + "\nThe agency said two of its staff were\n")[0]
    assert kept.rstrip().endswith("two of its staff were")
    gone = _clean(body + "\nSubscribe to our newsletter\nShare this article with friends\n")[0]
    assert "Subscribe" not in gone and "Share this" not in gone


def test_a_who_colon_what_headline_is_kept_and_labels_go() -> None:
    page = (
        "Home | World | Europe\n"
        "Kharkiv governor: Russian drones hit Zolochiv\n"
        "Russian drones struck a residential street in Zolochiv overnight, killing two people"
        " and wounding five, the regional governor said on Telegram.\n"
        "Rescuers were still clearing rubble in the morning, he said.\n"
        "Photo: Reuters\n"
    )
    kept = _clean(page)[0]
    assert kept.startswith("Kharkiv governor: Russian drones hit Zolochiv")
    assert "Photo: Reuters" not in kept and "Home |" not in kept


def test_stop_words_are_spacys_lists_read_without_importing_spacy() -> None:
    """The archiving child of a pooled ingest starts before spaCy is imported; reading
    pages (furniture needs these lists) must not pull it in."""
    import subprocess
    import sys

    from spacy.lang.uk.stop_words import STOP_WORDS as UK

    from corroborator.nlp.stop_words import stop_words

    assert stop_words("uk") == UK
    assert stop_words("xx") == frozenset()
    code = "import sys, corroborator.cli, corroborator.ingest.runner; print('spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cookie_notices_and_sign_up_lines_in_other_languages_are_furniture() -> None:
    """A German or French page pasted whole: its consent notice reads like a sentence, and
    had started the body (so its menu line stayed in the text)."""
    german = (
        "Nachrichten | Politik | Ausland | Meinung\n"
        "Wir nutzen Cookies, um Inhalte zu personalisieren. Mit „Akzeptieren“ stimmen Sie"
        " der Datenschutzerklärung zu. [Akzeptieren] [Einstellungen]\n"
        "Drohnenangriff auf Markt in Saporischschja: drei Tote\n"
        "Bei einem russischen Drohnenangriff auf einen Markt in Saporischschja sind am"
        " Morgen drei Menschen getötet worden, wie die Gebietsverwaltung mitteilte.\n"
        "Unter den Verletzten sei ein zwölfjähriges Kind, sagte ein Sprecher der Verwaltung.\n"
        "Newsletter abonnieren – jeden Freitag die wichtigsten Nachrichten aus Osteuropa.\n"
    )
    french = (
        "Accueil | International | Afrique\n"
        "Ce site utilise des cookies pour mesurer l'audience. [Tout accepter] [Paramétrer]"
        " [Refuser]\n"
        "Soudan : un marché bombardé près d'El Fasher\n"
        "Au moins douze personnes ont été tuées mardi lorsqu'un obus est tombé sur le marché"
        " d'un camp de déplacés près d'El Fasher, selon des secouristes locaux.\n"
        "Les blessés ont été transportés vers le seul hôpital encore ouvert de la ville.\n"
    )
    for page_text, notice, headline in (
        (german, "Wir nutzen Cookies", "Drohnenangriff auf Markt"),
        (french, "Ce site utilise des cookies", "Soudan : un marché"),
    ):
        dropped = "".join(page_text[a:b] for a, b in furniture_ranges(page_text))
        assert notice in dropped and page_text.split("\n")[0] in dropped
        assert headline not in dropped and "tuées" not in dropped and "getötet" not in dropped
    assert "Newsletter abonnieren" in "".join(german[a:b] for a, b in furniture_ranges(german))


def test_a_section_trail_above_the_headline_is_furniture() -> None:
    """'Europe > Ukraine war' reads like a short headline; the trail's arrow says it is not."""
    page_text = (
        "Home | World | Europe | Video\n"
        "Europe > Ukraine war\n"
        "Drone hits bus stop in Kherson, killing two\n"
        "A Russian drone struck a crowded bus stop in Kherson on Tuesday morning, killing two"
        " people and wounding nine, the regional governor said.\n"
        "Residents said the drone circled for several minutes before it struck.\n"
    )
    dropped = "".join(page_text[a:b] for a, b in furniture_ranges(page_text))
    assert "Europe > Ukraine war" in dropped
    assert "Drone hits bus stop" not in dropped and "governor said" not in dropped
