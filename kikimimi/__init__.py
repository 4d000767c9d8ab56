"""kikimimi: the controller for the kikimimi voice output game table."""

__version__ = "0.1.0"
