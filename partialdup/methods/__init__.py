"""Methods: each turns a sentence's tokens into a fingerprint, registered by name.

Importing this package registers every method (see
:mod:`partialdup.methods.base` for the protocol and how SimHash, MinHash + LSH
and an exact Bloom-filter stage fit it).
"""

from partialdup.methods import low_idf_sig, shingle, imatch, spotsig, setsim, simhash, minhash, pinyin  # noqa: F401  (registration order = --method order)
from partialdup.methods.base import Method, MethodSpec, build_method, method_names, method_params, method_spec, register, resolved_threshold

__all__ = [
    "Method",
    "MethodSpec",
    "build_method",
    "method_names",
    "method_params",
    "method_spec",
    "register",
    "resolved_threshold",
]
