"""What a process measures of the waits players feel, for ``/metrics``: how soon a command is
acknowledged, and how long each job waits for and runs in the worker processes (a board image, a
computer's move, a replay), with how many are in their hands now."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from prometheus_client import Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Acknowledgements(Collector):
    def __init__(self) -> None:
        self.seconds = Histogram(
            "territory_acknowledgement_seconds",
            "From a command's creation at Discord to the bot's acknowledgement of it",
            buckets=SECONDS,
            registry=None,
        )

    def collect(self) -> Iterator[Metric]:
        yield from self.seconds.collect()


class Jobs(Collector):
    """The worker processes' jobs: each one's time from being handed over to its result, by job."""

    def __init__(self) -> None:
        self.seconds = Histogram(
            "territory_worker_job_seconds",
            "A job's wait and run in the worker processes, by job",
            ["job"],
            buckets=SECONDS,
            registry=None,
        )
        self.in_hand = 0
        self._counting = threading.Lock()  # planning threads hand jobs over too

    def handed(self, count: int = 1) -> None:
        with self._counting:
            self.in_hand += count

    def done(self, job: str, seconds: float) -> None:
        with self._counting:
            self.in_hand -= 1
        self.seconds.labels(job).observe(seconds)

    def collect(self) -> Iterator[Metric]:
        yield from self.seconds.collect()
        yield GaugeMetricFamily(
            "territory_worker_jobs", "Jobs handed to the worker processes and not finished", self.in_hand
        )
