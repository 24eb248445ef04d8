"""Tấn (seed 003): its table's vocabulary and loader (`vocab`, `table`), its deck
(`cards`), the machine that plays a hand (`game`) and its words (`words`)."""
