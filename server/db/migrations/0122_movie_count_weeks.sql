-- Deep pages of a list at a million movies (issue #18). Page 1000 of a view (offset 19,980), sorted by creation or
-- publication, walked 20,000 entries of the sort index (14,000 buffers: each entry's visibility is looked up too),
-- and page 50 of the review queue filtered by a tag 35,000 (24,000 buffers) to find its 1,000 movies before the
-- page. movie_count_weeks keeps the movies per counter of movie_counts (0004, 0114: all, a column, a tag, a platform,
-- free or not, recommended or not), status and week (UTC, from Monday) of creation and of publication, as
-- movie_search_weeks (0120) does for a kept search term, so a deep page of a view or status and at most one of those
-- filters starts its walk at the week that holds its first row (movie/totals.ts viewPageStart).
--
-- Kept by a statement trigger on movies (tags through `tag_ids`, which 0100's link triggers keep): one upsert of
-- signed deltas per statement, rows written in key order; an update counts only when it changes a status, a sort
-- date or one of the counters' fields. The rebuild (0004, …, 0120) recomputes them. No movie is written while the
-- counts are filled and the trigger created.
LOCK TABLE movies IN SHARE MODE;--> statement-breakpoint
CREATE TABLE "movie_count_weeks" (
	"dim" varchar(16) NOT NULL,
	"key" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"sort" varchar(16) NOT NULL,
	"week" date NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "movie_count_weeks_pk" PRIMARY KEY("dim","key","status","sort","week")
);
--> statement-breakpoint
-- The weeks' rows of `movies` (a set of rows with a `sign`: +1 or -1): each movie under each counter it is in.
CREATE OR REPLACE FUNCTION zg_movie_count_weeks_of(movies text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($f$
    SELECT k.dim, k.key, r.status, s.sort, date_trunc('week', s.at AT TIME ZONE 'UTC')::date AS week, r.sign
    FROM (%s) AS r
    CROSS JOIN LATERAL (
      SELECT 'all'::text AS dim, 0 AS key
      UNION ALL SELECT 'column', r.column_id WHERE r.column_id IS NOT NULL
      UNION ALL SELECT 'tag', t FROM unnest(r.tag_ids) AS t
      UNION ALL (SELECT DISTINCT 'platform', p FROM unnest(r.platforms) AS p)
      UNION ALL SELECT 'free', r.free::int
      UNION ALL SELECT 'recommended', r.recommended::int
    ) AS k
    CROSS JOIN LATERAL (VALUES ('created', r.created_at), ('published', r.published_at)) AS s (sort, at)
    WHERE s.at IS NOT NULL
  $f$, movies)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_count_weeks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'status, created_at, published_at, column_id, tag_ids, platforms, free, recommended';
  written text;
BEGIN
  written := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s, 1 AS sign FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT %s, -1 AS sign FROM old_rows', cols)
    ELSE format('WITH ch AS MATERIALIZED (
        SELECT o.id FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE (o.status, o.created_at, o.published_at, o.column_id, o.tag_ids, o.platforms, o.free, o.recommended)
          IS DISTINCT FROM
          (nw.status, nw.created_at, nw.published_at, nw.column_id, nw.tag_ids, nw.platforms, nw.free, nw.recommended)
      )
      SELECT %1$s, -1 AS sign FROM old_rows WHERE id IN (SELECT id FROM ch)
      UNION ALL SELECT %1$s, 1 FROM new_rows WHERE id IN (SELECT id FROM ch)', cols)
  END;
  EXECUTE format($f$
    INSERT INTO movie_count_weeks AS w (dim, key, status, sort, week, n)
    SELECT dim, key, status, sort, week, sum(sign)::int FROM (%s) AS x
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (dim, key, status, sort, week) DO UPDATE SET n = w.n + excluded.n
  $f$, zg_movie_count_weeks_of(written));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_count_weeks_ins AFTER INSERT ON movies REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_count_weeks();
--> statement-breakpoint
CREATE TRIGGER movies_count_weeks_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_count_weeks();
--> statement-breakpoint
CREATE TRIGGER movies_count_weeks_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_count_weeks();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_count_weeks_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM movie_count_weeks;
  EXECUTE format($f$
    INSERT INTO movie_count_weeks (dim, key, status, sort, week, n)
    SELECT dim, key, status, sort, week, count(*)::int FROM (%s) AS x GROUP BY 1, 2, 3, 4, 5
  $f$, zg_movie_count_weeks_of(
    'SELECT status, created_at, published_at, column_id, tag_ids, platforms, free, recommended, 1 AS sign FROM movies'
  ));
END $$;
--> statement-breakpoint
SELECT zg_movie_count_weeks_rebuild();
--> statement-breakpoint
-- 0120's rebuild, with these weeks.
CREATE OR REPLACE FUNCTION zg_movie_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE movies, movie_tag_links IN SHARE MODE;
  PERFORM zg_movie_counters_rebuild();
  PERFORM zg_movie_gram_counts_rebuild();
  PERFORM zg_movie_search_counts_rebuild();
  PERFORM zg_movie_count_weeks_rebuild();
END $$;
