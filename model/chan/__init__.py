"""The Chắn kind (the family's Bài Chắn and classic Chắn, seeds 000–002): its cards, its
machine (`game`, and the packed copy `packed`), winning hands (`win`), cước (`cuoc`,
`score`), the dealing ritual (`cai`), declarations (`declare`), payments (`pay`) and
sessions (`session`).  The kind's record is `kind`; only the registry imports it."""
