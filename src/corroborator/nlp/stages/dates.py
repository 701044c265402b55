"""Stub: to be replaced by the real dates stage."""

from corroborator.nlp.pipeline import DocContext


class DatesStage:
    name = "corroborator.dates.v0"

    def __call__(self, ctx: DocContext) -> None:
        return None
