"""corroborator: an offline evidence ledger and claim extractor for war-crimes reporting."""

import os

# One BLAS thread per process, set before numpy loads its BLAS: the parse's matrix
# products go to numpy's OpenBLAS (`nlp.pipeline.load_nlp`), and corroborator works on
# several cores by running several processes (`--jobs`, Dask workers), whose BLAS threads
# would otherwise fight over the same cores. A value set in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"

__all__ = ["__version__"]
