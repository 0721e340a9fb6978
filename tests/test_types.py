"""The product packages type-check (``make lint`` runs the same): the configuration is pyproject's."""

from __future__ import annotations

import subprocess
import sys

from tests.imports import ROOT


def test_the_product_packages_type_check(tmp_path):
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=200,
    )
    assert checked.returncode == 0, checked.stdout[-3000:]
    assert "no issues found in" in checked.stdout
