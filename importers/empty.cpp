// Keeps the importers library non-empty on every configuration.
