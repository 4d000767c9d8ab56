"""The table: configuration, the live loop, the journal, event scripts and replay."""
