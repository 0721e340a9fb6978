"""What runs on its own beside the operations: the scheduler of wake-ups, the outbox that posts
announcements, the worker processes, the leases between bot processes, and ``GameService`` that
wires them together."""
