"""Jobs: the tasks users come for, built on the detector (thread merge, plagiarism check, ...)."""
