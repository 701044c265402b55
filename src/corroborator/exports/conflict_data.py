"""Our incidents in the column layouts of ACLED and UCDP GED, for analysts who use them.

The taxonomy mapping is documented in README.md ("Export mappings"). Fatalities follow the
conventions of each: ACLED takes the most conservative figure (our `killed.low`), UCDP gives
low/best/high.
"""

from __future__ import annotations

from typing import Any

# our type -> (ACLED event_type, sub_event_type)
ACLED_TYPES: dict[str, tuple[str, str]] = {
    "killing_civilians": ("Violence against civilians", "Attack"),
    "killing_captives": ("Violence against civilians", "Attack"),
    "no_quarter_order": ("Strategic developments", "Other"),
    "killing_own_forces": ("Strategic developments", "Other"),
    "torture_mistreatment": ("Violence against civilians", "Attack"),
    "attack_populated_area": ("Explosions/Remote violence", "Shelling/artillery/missile attack"),
    "sexual_violence": ("Violence against civilians", "Sexual violence"),
    "abduction_detention": ("Violence against civilians", "Abduction/forced disappearance"),
    "deportation_transfer": ("Strategic developments", "Displacement"),
    "coercion_of_troops": ("Strategic developments", "Other"),
    "other": ("Strategic developments", "Other"),
}
# ACLED geo_precision: 1 town, 2 part of region near town, 3 region/province.
GEO_PRECISION = {"settlement": 1, "admin2": 2, "admin1": 3, "country": 3, "unknown": 3}
# ACLED time_precision: 1 day, 2 week, 3 month or vaguer.
TIME_PRECISION = {"day": 1, "week": 2, "month": 3, "year": 3, "unknown": 3}
# UCDP where_prec 1 exact .. 7 country/unknown; date_prec 1 day .. 5 year or vaguer.
WHERE_PREC = {"settlement": 1, "admin2": 3, "admin1": 4, "country": 6, "unknown": 7}
DATE_PREC = {"day": 1, "week": 2, "month": 3, "year": 4, "unknown": 5}


def _sources(inc: dict[str, Any], docs: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for m in inc.get("mentions", []):
        d = docs.get(m["document_id"], {})
        name = d.get("outlet") or d.get("url") or m["source_file"]
        if name not in seen:
            seen.append(name)
    return seen


def acled_rows(incidents: list[dict[str, Any]], docs: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for inc in incidents:
        event_type, sub = ACLED_TYPES.get(inc["type"], ACLED_TYPES["other"])
        loc = inc.get("location") or {}
        date = inc.get("date") or {}
        perps = [p["name"] for p in inc.get("perpetrators", [])]
        rows.append(
            {
                "event_id_cnty": inc["incident_id"],
                "event_date": date.get("start") or "",
                "event_type": event_type,
                "sub_event_type": sub,
                "actor1": perps[0] if perps else "Unidentified",
                "actor2": ", ".join(inc.get("victims", [])),
                "admin1": loc.get("admin1") or "",
                "location": loc.get("name") or "",
                "latitude": loc.get("lat") if loc.get("lat") is not None else "",
                "longitude": loc.get("lon") if loc.get("lon") is not None else "",
                "geo_precision": GEO_PRECISION.get(loc.get("precision") or "unknown", 3),
                "time_precision": TIME_PRECISION.get(date.get("precision") or "unknown", 3),
                "source": "; ".join(_sources(inc, docs)),
                "source_scale": "Other",
                "notes": f"[{inc['type']}; status {inc['status']}] {inc.get('summary', '')}",
                "fatalities": (inc.get("killed") or {}).get("low") or 0,
            }
        )
    return rows


def ucdp_rows(incidents: list[dict[str, Any]], docs: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for inc in incidents:
        killed = inc.get("killed") or {}
        low, high = killed.get("low"), killed.get("high")
        best = low if low is not None else 0
        loc = inc.get("location") or {}
        date = inc.get("date") or {}
        rows.append(
            {
                "id": inc["incident_id"],
                "type_of_violence": inc["type"],
                "date_start": date.get("start") or "",
                "date_end": date.get("end") or "",
                "where_coordinates": loc.get("name") or "",
                "latitude": loc.get("lat") if loc.get("lat") is not None else "",
                "longitude": loc.get("lon") if loc.get("lon") is not None else "",
                "best": best,
                "low": low if low is not None else 0,
                "high": high if high is not None else best,
                "where_prec": WHERE_PREC.get(loc.get("precision") or "unknown", 7),
                "date_prec": DATE_PREC.get(date.get("precision") or "unknown", 5),
                "number_of_sources": (inc.get("corroboration") or {}).get("independent_sources", 0),
                "source_article": "; ".join(_sources(inc, docs)),
            }
        )
    return rows
