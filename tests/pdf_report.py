"""Builds a monitoring-report PDF with reportlab: text pages and one scanned (image-only) page.

Shared by the PDF tests and the reader benchmark.
"""

from __future__ import annotations

import io

PAGES = [
    (
        "Monitoring report on the Kherson region, spring 2024",
        [
            "This report summarises allegations collected by the field team between March and"
            " May 2024. Figures are those given by the sources and could not always be verified.",
        ],
    ),
    (
        "Strike on a market in Beryslav",
        [
            "On 9 April 2024 artillery shells hit the covered market in Beryslav shortly after"
            " it opened, killing four civilians and wounding eleven, according to the district"
            " administration. Two of the wounded were children.",
            "A stallholder who survived the strike said the shells arrived without warning while"
            " people were buying bread.",
        ],
    ),
    None,  # a scanned page: an image, no text layer
    (
        "Detention of volunteers",
        [
            "Three volunteers delivering insulin were detained at a checkpoint near Hola Prystan"
            " on 21 April 2024 and have not been heard from since, their relatives said.",
            "\u201cThey took their phones and drove them away in a truck,\u201d said Olena"
            " Kovalchuk, the sister of one of the volunteers.",
        ],
    ),
]


def scanned_page_image() -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("L", (600, 800), 250)
    draw = ImageDraw.Draw(img)
    for y in range(60, 760, 28):
        draw.line([50, y, 550, y], fill=40, width=9)  # lines of "print" in a scan
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def build_pdf(pages: list[tuple[str, list[str]] | None] | None = None, repeat: int = 1) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Image, PageBreak, Paragraph, SimpleDocTemplate

    styles = getSampleStyleSheet()
    story: list[object] = []
    todo = (pages or PAGES) * repeat
    for n, page in enumerate(todo):
        if page is None:
            story.append(Image(io.BytesIO(scanned_page_image()), width=300, height=400))
        else:
            title, paragraphs = page
            story.append(Paragraph(title, styles["Heading2"]))
            story += [Paragraph(p, styles["BodyText"]) for p in paragraphs]
        if n < len(todo) - 1:
            story.append(PageBreak())
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=A4, title="Kherson monitoring report").build(story)
    return out.getvalue()
