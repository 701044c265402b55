"""Stub: to be replaced by the real places stage."""

from corroborator.nlp.pipeline import DocContext


class PlacesStage:
    name = "corroborator.places.v0"

    def __call__(self, ctx: DocContext) -> None:
        return None
