"""Stub: to be replaced by the real hedges stage."""

from corroborator.nlp.pipeline import DocContext


class HedgesStage:
    name = "corroborator.hedges.v0"

    def __call__(self, ctx: DocContext) -> None:
        return None
