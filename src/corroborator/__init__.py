"""corroborator: an offline evidence ledger and claim extractor for war-crimes reporting."""

__version__ = "0.1.0"

__all__ = ["__version__"]
