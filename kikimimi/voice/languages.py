"""The languages the table speaks: a module of its own, so that a command's options can name them without
loading the phrase catalogs."""

LANGUAGES = ("ja", "en")
