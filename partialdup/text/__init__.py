"""Text: normalisation, sentences, tokens and IDF tables, with exact offsets into the original text."""
