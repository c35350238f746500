-- Lists at scale (issue #18): the comments list's content search uses the bigram index the titles use (zg_title_grams,
-- migration 0001) instead of reading every comment (ILIKE '%…%' over a million comments: seconds). The index narrows,
-- ILIKE rechecks. An expression index: no stored column, no table rewrite.
CREATE INDEX "comments_content_grams" ON "comments" USING gin (zg_title_grams("content"));
