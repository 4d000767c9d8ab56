"""Voice: phrase catalogs, speech backends, voice packs, audio outputs and the router."""
