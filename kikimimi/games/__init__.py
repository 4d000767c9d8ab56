"""Games of the kikimimi table, each a pure `apply(state, event) -> (state, effects)`.

Games are found through the registry (`kikimimi.games.registry`); nothing here names one.
"""
