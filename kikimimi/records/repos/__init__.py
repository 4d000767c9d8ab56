"""The records store's repositories, one per concern, each reading and writing through the store's unit
of work (`RecordStore.reading`/`writing`: one transaction per call, or a part of the caller's
`RecordStore.transaction`)."""
