"""Property tests draw the same examples on every run (``derandomize``), so the suite that passed here
passes on a fresh machine; set HYPOTHESIS_PROFILE=explore to search new examples instead. Tests that
need a PostgreSQL server share one for the session."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests.pgcluster import MISSING, SKIP_VARIABLE, Cluster, server_binaries

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def new_cluster() -> Cluster:
    """A private PostgreSQL server (``tests.pgcluster``), started; the test is skipped or fails without one."""
    binaries = server_binaries()
    if binaries is None:
        if os.environ.get(SKIP_VARIABLE) == "1":
            pytest.skip(f"{SKIP_VARIABLE}=1 and PostgreSQL's server binaries are not installed")
        pytest.fail(MISSING)
    return Cluster(binaries).start()


@pytest.fixture(scope="session")
def postgresql_cluster():
    """A private PostgreSQL server for the session, started on first use."""
    cluster = new_cluster()
    yield cluster
    cluster.stop()


@pytest.fixture
def halting_cluster():
    """A PostgreSQL server of the test's own, which it may halt and resume (an outage, a restart)
    without disturbing the other tests' databases."""
    cluster = new_cluster()
    yield cluster
    cluster.stop()
