-- Title search for the movies section (BENCHMARKS.md: pg_trgm cannot serve a two-character Chinese search).
-- zg_title_grams: the distinct characters and character bigrams of the lower-cased title; a generated column of
-- movies holds it under a GIN index. zg_query_grams: what a search string needs to be contained: its one
-- character, or its bigrams. `title_grams @> zg_query_grams(q)` narrows by index; `lower(title) LIKE` rechecks.
-- Plain SQL, no extension: it runs on PGlite and PostgreSQL alike.
CREATE OR REPLACE FUNCTION zg_title_grams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}'::text[]) FROM (
    SELECT substr(lower(t), i, 1) AS g FROM generate_series(1, char_length(t)) AS i
    UNION ALL
    SELECT substr(lower(t), i, 2) FROM generate_series(1, char_length(t) - 1) AS i
  ) AS grams
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_query_grams(q text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN char_length(q) = 1 THEN ARRAY[lower(q)] ELSE (
    SELECT coalesce(array_agg(DISTINCT substr(lower(q), i, 2)), '{}'::text[])
    FROM generate_series(1, char_length(q) - 1) AS i
  ) END
$$;
