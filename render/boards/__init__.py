"""Each ruleset's board drawing, in the module named after the ruleset (``render/boards/<name>.py``):
``VIEW``, the view type it draws, and ``draw(view, names, orders, title) -> Image``; ``entries``,
its legend's lines; ``spots``, ``touched`` and ``label_size``, where its places are drawn, for
close-ups (``render.crop``). The package registers them all when ``render`` is imported. Every board
marks a seat's holdings with his shape (``render.shapes.mark``) as well as his colour."""
