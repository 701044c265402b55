"""Partial ISO dates as the contract writes them: YYYY, YYYY-MM or YYYY-MM-DD."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache


@lru_cache(maxsize=4096)
def first_day(value: str | None) -> dt.date | None:
    """The first day a partial ISO date covers ("2023-02" -> 2023-02-01), or None."""
    if not value:
        return None
    parts = str(value)[:10].split("-")
    try:
        nums = [int(p) for p in parts]
        return dt.date(nums[0], nums[1] if len(nums) > 1 else 1, nums[2] if len(nums) > 2 else 1)
    except (ValueError, IndexError):
        return None
