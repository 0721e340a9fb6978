"""Each ruleset's board drawing, in the module named after the ruleset (``render/boards/<name>.py``):
``VIEW``, the view type it draws, and ``draw(view, names, orders, title) -> Image``. The package
registers them all when ``render`` is imported."""
