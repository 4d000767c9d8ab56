"""The Trident: the flagship game of the kikimimi table."""

from kikimimi.games.trident.engine import Trident
from kikimimi.games.trident.state import TridentState

__all__ = ["Trident", "TridentState"]
