"""Build examples/docs/monitor.warc.gz: two captured news pages as a crawler would store them.

Run from anywhere with `python examples/make_warc.py`; the output is committed, so this
only needs re-running after editing a page below. Dates and record ids are fixed, so the
archive is byte-for-byte reproducible.
"""

from __future__ import annotations

import io
import uuid
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

OUT = Path(__file__).resolve().parent / "docs" / "monitor.warc.gz"

EL_OBEID = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Shelling of El Obeid school kills about 30 children | Sahel &amp; Nile Monitor</title>
<meta property="og:site_name" content="Sahel &amp; Nile Monitor">
<meta property="og:title" content="Shelling of El Obeid school kills about 30 children">
<meta property="article:published_time" content="2025-01-21T11:00:00Z">
</head><body>
<nav><a href="/">Home</a> | <a href="/sudan">Sudan</a> | <a href="/chad">Chad</a> | <a href="/donate">Donate</a></nav>
<article>
<h1>Shelling of El Obeid school kills about 30 children</h1>
<p>Artillery shells hit a primary school in the Sudanese city of El Obeid on Monday morning,
killing about 30 children who had gathered for the first lessons since the school reopened,
teachers and medics at the city's teaching hospital said.</p>
<p>Sudan's army, which holds El Obeid, blamed the paramilitary Rapid Support Forces, whose
fighters have encircled the city from the west. Doctors said at least 18 other pupils and
three teachers were wounded.</p>
<p>"The first shell fell in the yard where the small ones were lining up. I have buried
eleven of my pupils today," said Hawa Adam, a teacher at the school, speaking by phone.</p>
<p>Ibrahim Mukhtar, an adviser to the RSF commander, rejected the accusation. "The Rapid
Support Forces have never targeted schools or civilians. This is army propaganda," he wrote
on X, adding that army positions were close to the school.</p>
<p>The Sahel &amp; Nile Monitor could not independently verify the death toll.</p>
</article>
<aside><h3>More from Sudan</h3><ul><li><a href="/1">Wheat prices double in Port Sudan</a></li>
<li><a href="/2">Refugees in eastern Chad face cholera</a></li></ul></aside>
<footer>Sahel &amp; Nile Monitor. Support independent journalism in the region.</footer>
</body></html>
"""

OICHA_TOLL = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>UN team counts 138 dead after Oicha area attack | Great Lakes Radio</title>
<meta property="og:site_name" content="Great Lakes Radio">
<meta property="article:published_time" content="2024-06-07T16:30:00Z">
</head><body>
<header><a href="/">Great Lakes Radio</a> <a href="/live">Listen live</a></header>
<div class="content">
<h1>UN team counts 138 dead after Oicha area attack</h1>
<p>United Nations human rights investigators said on Friday they had counted 138 people
killed, 29 of them children, in an attack by ADF rebels on Mamove village near Oicha in
North Kivu on 3 June.</p>
<p>The team, which visited the village with peacekeepers, said most victims were killed with
machetes and that a health centre was burned with at least six patients inside. About 60
people are still missing and are thought to have been abducted.</p>
<p>"These were deliberate killings of civilians in their homes, and those responsible must be
brought to justice," the head of the UN human rights office in Beni, Claire Mbuyi, said.</p>
<p>Congolese officials had earlier given a toll of up to 150.</p>
</div>
<footer>Great Lakes Radio. All rights reserved. Share this story.</footer>
</body></html>
"""

PAGES = [
    (
        "https://sahelnile.example/sudan/2025/01/21/el-obeid-school-shelling",
        "2025-01-21T12:02:11Z",
        EL_OBEID,
    ),
    (
        "https://greatlakesradio.example/news/2024/06/07/oicha-un-toll",
        "2024-06-07T17:45:03Z",
        OICHA_TOLL,
    ),
]


def build(out: Path = OUT) -> None:
    with open(out, "wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for n, (uri, date, html) in enumerate(PAGES):
            body = html.encode("utf-8")
            http = StatusAndHeaders(
                "200 OK",
                [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))],
                protocol="HTTP/1.1",
            )
            record = writer.create_warc_record(
                uri,
                "response",
                payload=io.BytesIO(body),
                http_headers=http,
                warc_headers_dict={
                    "WARC-Date": date,
                    "WARC-Record-ID": f"<urn:uuid:{uuid.UUID(int=n + 1)}>",
                },
            )
            writer.write_record(record)


if __name__ == "__main__":
    build()
    print(f"wrote {OUT}")
