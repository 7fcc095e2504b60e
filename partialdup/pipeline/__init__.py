"""Pipeline: the :class:`~partialdup.pipeline.detector.Detector` that strings the stages together, and :func:`~partialdup.pipeline.factory.make_detector`."""
