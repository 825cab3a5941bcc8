"""The locked model catalog: context windows and prices from a pinned, offline source."""
