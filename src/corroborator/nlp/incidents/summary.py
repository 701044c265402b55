"""A one-sentence plain summary of a DocIncident for reviewers.

Kept apart because the stage rewrites the summary after a late status change.
"""

from __future__ import annotations

from corroborator.models import DocIncident

_LABELS = {
    "killing_civilians": "killing of civilians",
    "killing_captives": "killing of captives",
    "no_quarter_order": "order to kill without quarter",
    "killing_own_forces": "killing of own forces",
    "torture_mistreatment": "torture or mistreatment",
    "attack_populated_area": "attack on a populated area",
    "sexual_violence": "sexual violence",
    "abduction_detention": "abduction or unlawful detention",
    "deportation_transfer": "deportation or forcible transfer",
    "coercion_of_troops": "coercion of troops",
    "other": "violation",
}


def summary(inc: DocIncident) -> str:
    """One sober sentence: who did what to whom, where, when, how many."""
    text = f"{inc.status.capitalize()} {_LABELS[inc.type]}"
    if inc.victims:
        text += f" ({', '.join(v.replace('_', ' ') for v in inc.victims)})"
    text += " by " + (
        " and ".join(inc.perpetrators) if inc.perpetrators else "unnamed perpetrators"
    )
    if inc.location.name:
        text += f" in {inc.location.name}"
    if inc.date.start:
        exact = inc.date.precision == "day"
        text += f" on {inc.date.start}" if exact else f" around {inc.date.start[:7]}"
    if inc.killed.low is not None:
        hi = f"-{inc.killed.high}" if inc.killed.high not in (None, inc.killed.low) else ""
        text += f"; {'about ' if inc.killed.approx else ''}{inc.killed.low}{hi} reported killed"
    return text + "."
