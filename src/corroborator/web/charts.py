"""Map and timeline geometry, computed on the server so pages need no script or tiles.

The map is an equirectangular SVG (x = lon, y = -lat) framed on the data, with country
outlines (vendored Natural Earth data) and a lat/lon graticule; close markers are clustered on a pixel grid so dense areas stay readable.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any

from corroborator.web.outlines import svg_paths

# Sober, colour-blind-friendly palette (Okabe-Ito), one per incident type.
TYPE_COLOURS = {
    "killing_civilians": "#0072B2",
    "killing_captives": "#D55E00",
    "no_quarter_order": "#CC79A7",
    "killing_own_forces": "#E69F00",
    "torture_mistreatment": "#009E73",
    "attack_populated_area": "#56B4E9",
    "sexual_violence": "#882255",
    "abduction_detention": "#F0E442",
    "deportation_transfer": "#44AA99",
    "coercion_of_troops": "#999933",
    "other": "#777777",
}
WIDTH, HEIGHT = 960, 520
CELL = 18.0  # px: markers closer than this share a cluster


@dataclass
class Marker:
    x: float
    y: float
    r: float
    colour: str
    ids: list[str] = field(default_factory=list)
    label: str = ""

    @property
    def count(self) -> int:
        return len(self.ids)


@dataclass
class MapView:
    markers: list[Marker]
    lon_lines: list[tuple[float, float]]  # (x, degrees)
    lat_lines: list[tuple[float, float]]  # (y, degrees)
    unplaced: int
    outlines: list[str] = field(default_factory=list)  # SVG path data, country borders
    width: int = WIDTH
    height: int = HEIGHT


def _frame(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    """(lon0, lon1, lat0, lat1) around the points, padded, with the canvas aspect ratio."""
    if not points:
        return -180.0, 180.0, -90.0, 90.0
    lons, lats = [p[0] for p in points], [p[1] for p in points]
    lon0, lon1, lat0, lat1 = min(lons), max(lons), min(lats), max(lats)
    span = max(lon1 - lon0, (lat1 - lat0) * WIDTH / HEIGHT, 4.0) * 1.3
    clon, clat = (lon0 + lon1) / 2, (lat0 + lat1) / 2
    half_w, half_h = span / 2, span * HEIGHT / WIDTH / 2
    return clon - half_w, clon + half_w, clat - half_h, clat + half_h


def _step(span: float) -> float:
    for s in (1, 2, 5, 10, 15, 30):
        if span / s <= 12:
            return float(s)
    return 30.0


def radius(killed_high: int | None) -> float:
    return 4.0 + min(math.sqrt(killed_high or 0), 22.0)


def map_view(incidents: list[dict[str, Any]]) -> MapView:
    placed = [
        (i, i["location"])
        for i in incidents
        if (i.get("location") or {}).get("lat") is not None
        and (i.get("location") or {}).get("lon") is not None
    ]
    lon0, lon1, lat0, lat1 = _frame([(float(loc["lon"]), float(loc["lat"])) for _i, loc in placed])

    def xy(lon: float, lat: float) -> tuple[float, float]:
        return (lon - lon0) / (lon1 - lon0) * WIDTH, (lat1 - lat) / (lat1 - lat0) * HEIGHT

    cells: dict[tuple[int, int], list[tuple[float, float, dict[str, Any]]]] = {}
    for inc, loc in placed:
        x, y = xy(float(loc["lon"]), float(loc["lat"]))
        cells.setdefault((int(x // CELL), int(y // CELL)), []).append((x, y, inc))
    markers = []
    for members in cells.values():
        x = sum(m[0] for m in members) / len(members)
        y = sum(m[1] for m in members) / len(members)
        incs = [m[2] for m in members]
        killed = sum(((i.get("killed") or {}).get("high") or 0) for i in incs)
        types = {i["type"] for i in incs}
        colour = TYPE_COLOURS.get(incs[0]["type"], "#777777") if len(types) == 1 else "#555555"
        names = sorted({(i.get("location") or {}).get("name") or "" for i in incs})
        markers.append(
            Marker(
                round(x, 1),
                round(y, 1),
                round(radius(killed), 1),
                colour,
                [i["incident_id"] for i in incs],
                ", ".join(n for n in names if n),
            )
        )
    step = _step(lon1 - lon0)
    lon_lines = [(round(xy(d, 0)[0], 1), d) for d in _range(lon0, lon1, step)]
    lat_lines = [(round(xy(0, d)[1], 1), d) for d in _range(lat0, lat1, step)]
    markers.sort(key=lambda m: -m.r)  # big first so small ones stay clickable on top
    outlines = svg_paths((lon0, lon1, lat0, lat1), xy)
    return MapView(markers, lon_lines, lat_lines, len(incidents) - len(placed), outlines)


def _range(a: float, b: float, step: float) -> list[float]:
    start = math.ceil(a / step) * step
    out = []
    v = start
    while v <= b:
        out.append(v)
        v += step
    return out


@dataclass
class TimelineRow:
    incident: dict[str, Any]
    x: float
    w: float
    precision: str
    label: str


@dataclass
class TimelineView:
    rows: list[TimelineRow]
    ticks: list[tuple[float, str]]
    undated: int
    hidden: int = 0
    width: int = WIDTH


def _date(value: str | None) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        return None


def _score(inc: dict[str, Any]) -> float:
    return float((inc.get("corroboration") or {}).get("score") or 0.0)


def timeline_view(incidents: list[dict[str, Any]], limit: int = 400) -> TimelineView:
    """One row per dated incident: a dot for a day, a bar spanning a week, month or year."""
    dated = []
    for inc in incidents:
        d = inc.get("date") or {}
        start = _date(d.get("start"))
        if start is None:
            continue
        end = _date(d.get("end")) or start
        dated.append((start, max(end, start), d.get("precision") or "day", inc))
    dated.sort(key=lambda t: (t[0], t[1]))
    if not dated:
        return TimelineView([], [], len(incidents))
    hidden = max(0, len(dated) - limit)
    if hidden:  # keep the best-corroborated, shown in date order
        dated = sorted(
            sorted(dated, key=lambda t: -_score(t[3]))[:limit], key=lambda t: (t[0], t[1])
        )
    lo, hi = dated[0][0], max(t[1] for t in dated)
    lo, hi = lo - dt.timedelta(days=3), hi + dt.timedelta(days=4)
    days = max((hi - lo).days, 1)
    left, usable = 10.0, WIDTH - 20.0

    def x(d: dt.date) -> float:
        return round(left + (d - lo).days / days * usable, 1)

    rows = []
    for start, end, precision, inc in dated:
        x0 = x(start)
        x1 = x(end + dt.timedelta(days=1))
        label = start.isoformat() if start == end else f"{start.isoformat()} – {end.isoformat()}"
        rows.append(TimelineRow(inc, x0, max(x1 - x0, 3.0), precision, label))
    ticks = []
    month = dt.date(lo.year, lo.month, 1)
    every = max(1, days // 300 + 1)  # at most ~12 labelled months
    n = 0
    while month <= hi:
        if month >= lo and n % every == 0:
            ticks.append((x(month), month.strftime("%Y-%m")))
        n += 1
        month = dt.date(month.year + (month.month == 12), month.month % 12 + 1, 1)
    return TimelineView(rows, ticks, len(incidents) - len(dated) - hidden, hidden)
