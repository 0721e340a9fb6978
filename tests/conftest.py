"""Property tests draw the same examples on every run (``derandomize``), so the suite that passed here
passes on a fresh machine; set HYPOTHESIS_PROFILE=explore to search new examples instead."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
