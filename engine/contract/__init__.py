"""The parts of the ruleset contract a game supplies; ``engine.ruleset.Ruleset`` puts them together."""
