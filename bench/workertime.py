"""Jobs timed where they run: a worker process reports the CPU a job took there, so that a bench can
set the real renders of a run, at that moment's machine speed, beside its figures."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed(job: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """The job's result, and the milliseconds of CPU it took in this process."""
    started = time.process_time()
    result = job(*args, **kwargs)
    return result, (time.process_time() - started) * 1000
