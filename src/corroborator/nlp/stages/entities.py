"""Stub: to be replaced by the real entities stage."""

from corroborator.nlp.pipeline import DocContext


class EntitiesStage:
    name = "corroborator.entities.v0"

    def __call__(self, ctx: DocContext) -> None:
        return None
