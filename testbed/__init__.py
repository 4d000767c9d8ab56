"""The repository's test bed: emulated readers and a throwaway PostgreSQL server, for tests and benchmarks.

Not part of the product: an installed kikimimi never imports it. A checkout set up by `./run` (an editable
install) finds it beside `kikimimi/`, so the tests and the benches that need emulated hardware
(`kikimimi bench readers`, `bench standings --postgres`, `bench meeting`) run from a checkout; from an
install they say so in one line.

- `nfc_emulator`: a FeliCa tag on nfcpy's virtual `udp` frontend, in its own process.
- `pn532_emulator`: a PN532 on a pseudo-terminal for nfcpy's `tty` transport and `pn532` driver.
- `rcs380_emulator`, `acr122_emulator`: USB readers' chips, behind umockdev's emulated usbdevfs.
- `vpcd`: pcscd with Debian's vpcd virtual readers, and cards for them.
- `pgcluster`: Debian's PostgreSQL server in a temporary folder.
"""
