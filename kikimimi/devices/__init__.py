"""Devices: reader drivers (nfcpy, serial protocols, simulated), the hub and the deck."""
