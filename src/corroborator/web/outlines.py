"""Country outlines for the offline map, from the npm package world-atlas (Natural Earth
1:50m, public domain; TopoJSON, ISC licence), vendored as static/countries-50m.json.

TopoJSON stores shared, delta-encoded, quantised arcs; we decode them once into lon/lat
rings and project per request, keeping only rings inside the frame.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from importlib import resources

Ring = list[tuple[float, float]]


@lru_cache(maxsize=1)
def rings() -> list[tuple[Ring, tuple[float, float, float, float]]]:
    """Every country ring with its bounding box (lon0, lon1, lat0, lat1)."""
    path = resources.files("corroborator.web").joinpath("static", "countries-50m.json")
    topo = json.loads(path.read_text(encoding="utf-8"))
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs: list[Ring] = []
    for arc in topo["arcs"]:
        x = y = 0
        pts: Ring = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(indices: list[int]) -> Ring:
        out: Ring = []
        for i in indices:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        return out

    result = []
    for geom in topo["objects"]["countries"]["geometries"]:
        polys = geom.get("arcs", [])
        if geom["type"] == "Polygon":
            polys = [polys]
        elif geom["type"] != "MultiPolygon":
            continue
        for poly in polys:
            for r in poly:
                pts = ring(r)
                lons = [p[0] for p in pts]
                lats = [p[1] for p in pts]
                result.append((pts, (min(lons), max(lons), min(lats), max(lats))))
    return result


def svg_paths(
    frame: tuple[float, float, float, float],
    xy: Callable[[float, float], tuple[float, float]],
    min_px: float = 0.8,
) -> list[str]:
    """SVG path data of the rings that touch the frame, thinned to `min_px` steps."""
    lon0, lon1, lat0, lat1 = frame
    out = []
    for pts, (a, b, c, d) in rings():
        if b < lon0 or a > lon1 or d < lat0 or c > lat1:
            continue
        parts: list[str] = []
        last: tuple[float, float] | None = None
        prev_lon = pts[0][0]
        broken = False
        for lon, lat in pts:
            x, y = xy(lon, lat)
            jump = abs(lon - prev_lon) > 180  # a ring cut at the antimeridian
            prev_lon = lon
            broken |= jump
            if last and not jump and abs(x - last[0]) < min_px and abs(y - last[1]) < min_px:
                continue
            parts.append(f"{'M' if last is None or jump else 'L'}{x:.1f},{y:.1f}")
            last = (x, y)
        if len(parts) > 2:
            out.append("".join(parts) + ("" if broken else "Z"))
    return out
