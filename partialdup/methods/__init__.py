"""Methods: each turns a sentence's tokens into a fingerprint, registered by name (see :mod:`partialdup.methods.base`)."""
