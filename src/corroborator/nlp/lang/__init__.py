"""Per-language parts of the pipeline: language detection and the Russian/Ukrainian stages."""
