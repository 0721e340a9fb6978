"""The web site (``bot.py web``): a server's games, each game's board at full size with every
resolved turn, leaderboards and players' ratings, read from the bots' own database. It shows only
what every player of a game may see (``web.pages``), in each server's language."""
