"""Stub: to be replaced by the real numbers stage."""

from corroborator.nlp.pipeline import DocContext


class NumbersStage:
    name = "corroborator.numbers.v0"

    def __call__(self, ctx: DocContext) -> None:
        return None
