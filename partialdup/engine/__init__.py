"""Engines: where a run's costly stages are carried out (see docs/engine.md).

* ``local`` (the default): this machine, ``--jobs`` worker processes
  (:class:`~partialdup.pipeline.parallel.LocalEngine`);
* ``dask``: a Dask cluster (:mod:`partialdup.engine.dask_engine`), a
  running one (``--scheduler ADDRESS``) or a local one.

Every engine gives byte-identical output: they run the detector's own stage
functions, and the detector puts the results together in one order.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

from partialdup.core.config import Config
from partialdup.pipeline.parallel import Engine, LocalEngine

__all__ = ["open_engine"]


@contextlib.contextmanager
def open_engine(config: Config) -> Iterator[Engine]:
    """The engine ``config.engine`` names, ready for a run, closed afterwards.

    Dask is imported only here, when asked for: ``partialdup --help`` and a
    local run never pay for it.

    Raises:
        ConfigError: Dask is not installed, or the scheduler cannot be reached.
    """
    if config.engine != "dask":
        local = LocalEngine(config.jobs)
        try:
            yield local
        finally:
            local.close()
        return
    from partialdup.engine.dask_engine import DaskEngine

    with DaskEngine.connect(config) as engine:
        yield engine
