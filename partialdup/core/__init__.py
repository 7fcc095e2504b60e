"""Core: the shared data types, the one configuration, errors, character classes and stable hashing. Imports nothing of partialdup."""
