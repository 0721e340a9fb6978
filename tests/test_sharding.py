"""Which process syncs the commands, and when each shard may IDENTIFY (Discord's max_concurrency)."""

from __future__ import annotations

from cogs.sharding import IdentifyLimiter, syncs_commands


def test_only_the_process_holding_shard_0_syncs():
    assert syncs_commands(None) and syncs_commands([0]) and syncs_commands([1, 0])
    assert not syncs_commands([1]) and not syncs_commands([2, 3])


def test_shards_of_different_buckets_identify_together():
    limiter = IdentifyLimiter(max_concurrency=2)
    assert [limiter.reserve(shard, now=100.0) for shard in (0, 1)] == [0, 0]
    assert limiter.reserve(2, now=101.0) == 4.0  # shares bucket 0 with shard 0, which identified at 100
    assert limiter.reserve(3, now=106.0) == 0  # bucket 1's window is over


def test_one_bucket_identifies_once_per_window():
    limiter = IdentifyLimiter(max_concurrency=1)
    assert [limiter.reserve(shard, now=0.0) for shard in range(3)] == [0, 5.0, 10.0]
    assert limiter.reserve(None, now=20.0) == 0  # an unsharded re-identify long after
