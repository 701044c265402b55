"""Arabic: its letters, its words for the story linker, and its place names."""
