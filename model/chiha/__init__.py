"""Chiha (bài Xệp, seed 004): its table's vocabulary and loader (`vocab`, `table`), its
deck (`deck`) and the exact meld engine (`melds`: the most lệnh over every split of a
hand into melds).  The machine that plays a hand is not written yet."""
