"""A throwaway PostgreSQL cluster for the tests (and benches): made with Debian's server binaries in a
private folder, listening on a unix socket in that folder only (no TCP port), its data unsynced for
the tests (a crash of the machine may lose it: it is thrown away anyway).

Each test gets a fresh database copied from a template that already has the schema, which takes a
few milliseconds. PostgreSQL refuses to run as root, so under root (CI) the server runs as the
``postgres`` user that Debian's package creates.

The tests must never pass by skipping PostgreSQL unnoticed: without the binaries the tests that need
them fail, saying what to install, unless ``SKIP_POSTGRESQL_TESTS=1`` says to skip them on purpose.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pathlib
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator

SKIP_VARIABLE = "SKIP_POSTGRESQL_TESTS"
MISSING = (
    "the PostgreSQL tests need PostgreSQL's server binaries (initdb, pg_ctl; Debian: apt-get install postgresql, "
    "found in /usr/lib/postgresql/VERSION/bin or PG_BIN); set SKIP_POSTGRESQL_TESTS=1 to run without them"
)
SERVER_SETTINGS = "-c listen_addresses='' -c max_connections=200 -c shared_buffers=32MB"
UNSYNCED = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"  # for tests: nothing to keep


def server_binaries() -> pathlib.Path | None:
    """The folder holding initdb and pg_ctl: PG_BIN, else the newest Debian install, else PATH."""
    candidates = [os.environ["PG_BIN"]] if os.environ.get("PG_BIN") else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
    if shutil.which("pg_ctl"):
        candidates.append(str(pathlib.Path(shutil.which("pg_ctl")).parent))
    for folder in candidates:
        if (pathlib.Path(folder) / "initdb").exists() and (pathlib.Path(folder) / "pg_ctl").exists():
            return pathlib.Path(folder)
    return None


class Cluster:
    """One server; ``url(name)`` reaches database ``name`` over the private socket."""

    def __init__(self, binaries: pathlib.Path, *, durable: bool = False):
        """``durable``: commits reach the disk, as on a real server (benches); tests need not wait for it."""
        self.binaries, self.durable = binaries, durable
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="territory-pg-"))
        self.data = self.folder / "data"
        self.user = "postgres"
        self._as = {}
        if os.geteuid() == 0:  # initdb and postgres refuse root
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "PostgreSQL's server refuses to run as root and there is no postgres user to run it as: "
                    "run the tests as another user, or install Debian's postgresql package, which makes one"
                ) from None
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            self._as = {"user": account.pw_uid, "group": account.pw_gid}
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        result = subprocess.run(
            [str(self.binaries / args[0]), *args[1:]], capture_output=True, text=True, cwd=self.folder, **self._as
        )
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {result.stdout}{result.stderr}")

    def start(self) -> Cluster:
        self._run(
            "initdb", "-D", str(self.data), "-U", self.user, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"
        )
        return self.resume()

    def resume(self) -> Cluster:
        """Start the server on the data it has (again, after ``halt``)."""
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w", "-o",
            f"{SERVER_SETTINGS} {'' if self.durable else UNSYNCED} -k {self.folder}", "start",
        )  # fmt: skip
        return self

    def halt(self) -> None:
        """Stop the server and keep its data, as an outage or a restart does: ``resume`` brings it back."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():  # not after a halt that was not resumed
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@/{database}?host={self.folder}"

    def fresh_name(self) -> str:
        return f"test_{next(self._names)}"


@contextlib.contextmanager
def bench_cluster() -> Iterator[Cluster]:
    """A server with durable commits, as in production, for a bench; without the binaries the bench
    ends at once (exit status 2) saying what to install."""
    binaries = server_binaries()
    if binaries is None:
        print(MISSING, file=sys.stderr)
        raise SystemExit(2)
    cluster = Cluster(binaries, durable=True).start()
    try:
        yield cluster
    finally:
        cluster.stop()
