"""Stats and ratings of both modes: a player's figures (`figures`, `scope`), the
leaderboard, charts, skill ratings (`ratings`, `rating_ledger`, `rating_stats`), the
exports and the BG Stats import. Reads the seats and rounds nights/ and online/ write."""
