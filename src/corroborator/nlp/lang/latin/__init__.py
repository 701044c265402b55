"""Languages in the Latin script that have no pipeline here (French, German, Spanish,
Polish, ...): read for names and places only.

The English model on such text tags every capitalised word as someone ('Leichen von
Vater' a person, 'Mann' the Isle of Man), so these paragraphs never reach it. What a
reader can trust without a model is kept: people named in full, acronyms of
organisations, and places the gazetteer knows under that spelling (GeoNames lists
'Kiew', 'Charkiw', 'Soudan'). No quotes, figures or incidents are read from them; the
document's language ranges say why. Paragraphs in a script without capitals (Arabic) come
here too: only names written in Latin letters ('RSF') can be found in them.
"""
