"""Russian and Ukrainian extraction: natasha NER, pymorphy3 lemmas, small lexicons.

Every record keeps offsets into the original-language text; nothing is translated.
"""
