"""Match: sentence pairs, character checks, chaining pairs into spans, edge refinement and one origin per passage."""
