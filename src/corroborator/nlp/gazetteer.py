"""Stub: to be replaced by the GeoNames gazetteer ruler."""

from spacy.language import Language


def add_ruler(nlp: Language) -> None:
    return None
