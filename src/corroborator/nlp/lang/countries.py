"""Country names in a report's own language ('Ucrania', 'Oekraïne', 'Ukrajina', 'Irak'):
the Unicode CLDR's territory names, as Babel ships them (PyPI, offline).

GeoNames lists countries under their English names and a few official ones, so a
Spanish report naming 'Ucrania' and 'Rusia' named no country at all, and its towns had
nothing to vouch for them. The language's own word for a country names it even when the
language's dictionary holds that word too (it must: the dictionary is of the language).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from corroborator.nlp.gazetteer import normalize

_PARTS = re.compile(r"\s*[()]\s*")  # "Myanmar (Birmania)": both names


@cache
def names(language: str, key: Callable[[str], str] = normalize) -> dict[str, str]:
    """Country name (as `key` folds it) -> ISO 3166 alpha-2 code, for `language` ({} when
    CLDR has no locale for it)."""
    from babel import Locale, UnknownLocaleError

    try:
        territories = Locale.parse(language).territories
    except (UnknownLocaleError, ValueError):
        return {}
    out: dict[str, str] = {}
    for code, name in territories.items():
        if len(code) != 2 or not code.isalpha():  # "001" (world), "EU", "ZZ"
            continue
        for part in _PARTS.split(name):
            if part:
                out.setdefault(key(part), code)
    return out
