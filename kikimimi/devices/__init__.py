"""Devices: reader drivers (nfcpy, serial protocols, simulated), the hub and the deck.

What the table uses: `config.parse_readers` -> `hub.Hub` -> `events.ReaderEvent` (tap/removed) and
`Hub.health()`; `deck.load_deck` turns a UID into a piece id. See hardware_docs/readers.md.
"""
