"""Stories: documents whose main news event is the same share one `story_id`.

All news about one war shares vocabulary, so lexical similarity alone over-links, and
retellings (rewrites, translations, excerpts) share few exact words. The score combines
what survives rewording with the words: TF-IDF cosine of the text (lead weighted up,
proper nouns reduced to transliteration-neutral keys so Ossechkin and Osechkin agree),
shared rare named people, groups and places (IDF-weighted; or the names in the text,
when extraction missed them), shared quoted words and figures. Look-alikes (the same kind
of event elsewhere, another unit's confession) are told apart by soft conflicts that
multiply the score but together never cut it below half (several weak ones at once are
what independent retellings look like): the town each report is about (named first or
most) is named nowhere in the other, in any close spelling; the people or groups each
names twice are absent from the other; each centres on a person the other never names;
neither uses the other's most telling event words (only within one language); their
headlines name other kinds of place hit or other weapons (a monastery school and a night
market, a drone and a missile), which neither lead mentions. Names
spelled two ways (Lepetykha in English, Lepetykhy inflected in Ukrainian) match by
Jaro-Winkler. Publication dates, when both
are known, decay the score with distance; a missing date never vetoes. These parts and
that hand-weighted score are weighed together by a logistic model fitted on the project's
retellings (`story_model`), so a pair's score is how likely it is to be one story.
Candidates come from blocks (a document's rarest terms, entities and quote shingles,
within a time window), so nothing compares all pairs. Stories are clusters: two stories
merge when their members look alike on average (the closest pair weighted in), best pair
first. A batch is clustered at once, so the result does not depend on arrival order and a
report that bridges two partial tellings (an English wire naming the town, a Ukrainian
note naming the governor) joins them; a new document is placed by the same rule against
only the stories its candidates belong to, merging them when it bridges them. A story's
id is its earliest member's id, so ids stay stable as documents arrive.

One module a step: `terms` turns a report's words into terms and skeletons, `reading` reads
each report once (`Reading`), `records` holds what passes between the steps, `spelling`
tells one name word in two spellings, `conflicts` finds the look-alike evidence, `score`
weighs what two reports share, and `index` blocks, scores and clusters (`StoryIndex`,
`assign_stories`); `pairwise` measures stories against gold ones.
"""

from corroborator.linking.stories.conflicts import CONCEPT_WORDS
from corroborator.linking.stories.index import (
    BLOCK_NAMES,
    BLOCK_NAMES_FOREIGN,
    DF_BITS,
    EVIDENCE_THRESHOLD,
    FOLLOW_UP_POPULATION,
    READ_BATCH,
    THRESHOLD,
    HashedCounts,
    StoryIndex,
    assign_stories,
    lookup_keys,
)
from corroborator.linking.stories.pairwise import pairwise_prf
from corroborator.linking.stories.reading import headed, read, read_words
from corroborator.linking.stories.records import Reading, StoryDoc, Vec
from corroborator.linking.stories.score import (
    DAY_DISCOUNT,
    SITE_CONFLICT,
    TOLL_DISCOUNT,
    entity_keys,
    quote_shingles,
)
from corroborator.linking.stories.terms import term_counts

__all__ = [
    "BLOCK_NAMES",
    "BLOCK_NAMES_FOREIGN",
    "CONCEPT_WORDS",
    "DAY_DISCOUNT",
    "DF_BITS",
    "EVIDENCE_THRESHOLD",
    "FOLLOW_UP_POPULATION",
    "READ_BATCH",
    "SITE_CONFLICT",
    "THRESHOLD",
    "TOLL_DISCOUNT",
    "HashedCounts",
    "Reading",
    "StoryDoc",
    "StoryIndex",
    "Vec",
    "assign_stories",
    "entity_keys",
    "headed",
    "lookup_keys",
    "pairwise_prf",
    "quote_shingles",
    "read",
    "read_words",
    "term_counts",
]
