-- The comments list's content search at a million comments (issue #18). Its capped total (at most 10,001 matches)
-- read the bigram index of migration 0071, which gathers every match of the table into a bitmap before the first
-- is counted: 50,000 for 好看, 5 × 100,000 for "ending" (16–20 ms), however few are needed. Here the grams carry the
-- comment's id bucket (id >> 17: 131,072 ids each), and a count reads the buckets one by one, newest first (one
-- UNION ALL branch each, server/modules/comment/model.ts), stopping at the cap with only those buckets gathered.
-- zg_bucket_grams: the grams of zg_title_grams (0001) as 'bucket:gram' (its body repeated: a function of an index
-- expression may call only built-ins, PostgreSQL 17 builds the index with the catalog alone on its search path);
-- zg_bucket_query: what zg_query_grams needs, of one bucket. Plain SQL: PostgreSQL and PGlite alike.
CREATE OR REPLACE FUNCTION zg_bucket_grams(t text, id integer) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT (id >> 17)::text || ':' || g), '{}'::text[]) FROM (
    SELECT substr(lower(t), i, 1) AS g FROM generate_series(1, char_length(t)) AS i
    UNION ALL
    SELECT substr(lower(t), i, 2) FROM generate_series(1, char_length(t) - 1) AS i
  ) AS grams
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_bucket_query(q text, bucket integer) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN char_length(q) = 1 THEN ARRAY[bucket::text || ':' || lower(q)] ELSE (
    SELECT coalesce(array_agg(DISTINCT bucket::text || ':' || substr(lower(q), i, 2)), '{}'::text[])
    FROM generate_series(1, char_length(q) - 1) AS i
  ) END
$$;
--> statement-breakpoint
CREATE INDEX "comments_content_buckets" ON "comments" USING gin (zg_bucket_grams("content", "id"));
--> statement-breakpoint
DROP INDEX "comments_content_grams";
