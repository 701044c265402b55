"""The ages a report gives its people ('a 22-year-old soldier', 'Vasyl Hrytsenko, 63,',
'22-річний', 'un soldado de 22 años'). A retelling that drops or respells the names keeps
the ages, so two reports giving one age share a particular as they share a toll: the
captured soldier told of in five languages is named in none of them, but he is 22 in all.
"""

from __future__ import annotations

import re

_AGE = re.compile(
    r"(?ix)"
    r"\b(\d{1,2})\s?[-‑–]?\s?(?:year|yr)s?[-‑–\s]old\b"  # 22-year-old, 22 years old
    r"|\baged\s(\d{1,2})\b"
    # 22-річний, 22-летний, 22-letni, 22-jährige, 22enne, 22letý
    r"|\b(\d{1,2})\s?[-‑–]?\s?(?:річн|летн|letni|letn|jährig|jahrig|enne\b|letý|letá)"
    r"|\b(?:de|di|von)\s(\d{1,2})\s(?:años|ans|anni|jahren|lat)\b"  # de 22 años
    r"|\b(\d{1,2})\s(?:años|ans|anni|jahre\salt|lat|лет|років|года|роки)\b"
    # a name's apposition: 'Vasyl Hrytsenko, 63, opened the gate'
    r"|(?-i:\b[A-ZÀ-ÖØ-ÞА-ЯІЇЄҐ][a-zà-öø-ÿа-яіїєґ'’]+),\s(\d{1,2})"
    r"(?=,|\s(?:and|was|who|died|said)\b)"
)


def ages(text: str) -> frozenset[int]:
    return frozenset(int(next(g for g in m.groups() if g)) for m in _AGE.finditer(text))
