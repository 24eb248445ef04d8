"""The reference state machine of Bài Chắn: cards, rule table, winning-hand engine, game."""
