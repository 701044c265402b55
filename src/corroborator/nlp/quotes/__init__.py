"""Direct quotations and who said them: marks, speakers, attribution, roles and stance.

`stage.QuotesStage` runs the modules in order: `marks` finds quoted words, `speakers`
collects who may speak, `attribution` gives each quote its speaker, `roles` the speaker's
role and the quote's stance. `lexicon` holds the shared word lists and token tests.
"""

from corroborator.nlp.quotes.stage import QuotesStage, extract_quotes

__all__ = ["QuotesStage", "extract_quotes"]
