"""Unit tests of goldenset_builder's pure functions (no Debian packages needed).

Every text here is an excerpt of a real text: the committed goldenset/ files,
or the packaged source they were built from, as named in each test.
"""
