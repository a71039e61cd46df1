"""The games, one package each: rules, notation and rendering."""
