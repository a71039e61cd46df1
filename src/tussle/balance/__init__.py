"""`tussle balance`: how fair a game is and how strong each of its parts, measured over many games."""
