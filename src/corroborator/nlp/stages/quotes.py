"""Stub: to be replaced by the real quotes stage."""

from corroborator.nlp.pipeline import DocContext


class QuotesStage:
    name = "corroborator.quotes.v0"

    def __call__(self, ctx: DocContext) -> None:
        return None
