"""Incident extraction: acts found in sentences, typed, merged per document and filled out.

`stage.IncidentsStage` is the entry point; each module does one step (triggers and mood,
roles, per-sentence mentions, type resolution, merging, field filling, summary).
"""
