"""Stub: to be replaced by the real incidents stage."""

from corroborator.nlp.pipeline import DocContext


class IncidentsStage:
    name = "corroborator.incidents.v0"

    def __call__(self, ctx: DocContext) -> None:
        return None
