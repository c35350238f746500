-- Deep pages of a list at a million movies (issue #18). Page 1000 of a view (offset 19,980), sorted by creation or
-- publication, walked 20,000 entries of the sort index (14,000 buffers: each entry's visibility is looked up too),
-- however the view is read (one walk per status, or the sort index). movie_count_weeks keeps the movies per status
-- and week (UTC, from Monday) of creation and of publication, as movie_search_weeks (0120) does for a kept search
-- term, so a deep page starts its walk at the week that holds its first row (movie/totals.ts viewPageStart).
--
-- Kept by a statement trigger like movie_counts (0004): one upsert of signed deltas per statement, rows written in key
-- order; an update counts only when it changes a status or a sort date. The rebuild (0004, …, 0120) recomputes them.
-- No movie is written while the counts are filled and the trigger created.
LOCK TABLE movies IN SHARE MODE;--> statement-breakpoint
CREATE TABLE "movie_count_weeks" (
	"status" varchar(16) NOT NULL,
	"sort" varchar(16) NOT NULL,
	"week" date NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "movie_count_weeks_pk" PRIMARY KEY("status","sort","week")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_count_weeks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  written text;
BEGIN
  written := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT status, created_at, published_at, 1 FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT status, created_at, published_at, -1 FROM old_rows'
    ELSE 'SELECT o.status, o.created_at, o.published_at, -1 FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE (o.status, o.created_at, o.published_at) IS DISTINCT FROM (nw.status, nw.created_at, nw.published_at)
      UNION ALL SELECT nw.status, nw.created_at, nw.published_at, 1 FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE (o.status, o.created_at, o.published_at) IS DISTINCT FROM (nw.status, nw.created_at, nw.published_at)'
  END;
  EXECUTE format($f$
    WITH r (status, created_at, published_at, sign) AS (%s)
    INSERT INTO movie_count_weeks AS w (status, sort, week, n)
    SELECT status, sort, week, sum(sign)::int FROM (
      SELECT status, 'created' AS sort, date_trunc('week', created_at AT TIME ZONE 'UTC')::date AS week, sign FROM r
      UNION ALL SELECT status, 'published', date_trunc('week', published_at AT TIME ZONE 'UTC')::date, sign
      FROM r WHERE published_at IS NOT NULL
    ) AS x GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (status, sort, week) DO UPDATE SET n = w.n + excluded.n
  $f$, written);
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
  INSERT INTO movie_count_weeks (status, sort, week, n)
  SELECT status, 'created', date_trunc('week', created_at AT TIME ZONE 'UTC')::date, count(*)::int
  FROM movies GROUP BY 1, 3
  UNION ALL
  SELECT status, 'published', date_trunc('week', published_at AT TIME ZONE 'UTC')::date, count(*)::int
  FROM movies WHERE published_at IS NOT NULL GROUP BY 1, 3;
END $$;
--> statement-breakpoint
SELECT zg_movie_count_weeks_rebuild();
--> statement-breakpoint
-- 0120's rebuild, with these weeks.
CREATE OR REPLACE FUNCTION zg_movie_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE movies, movie_tag_links IN SHARE MODE;
  DELETE FROM movie_counts;
  INSERT INTO movie_counts (dim, key, status, n)
  SELECT 'all', 0, status, count(*) FROM movies GROUP BY status
  UNION ALL SELECT 'column', column_id, status, count(*) FROM movies WHERE column_id IS NOT NULL GROUP BY column_id, status
  UNION ALL SELECT 'platform', p, status, count(*)
    FROM (SELECT DISTINCT id, status, p FROM movies, unnest(platforms) AS p) AS x GROUP BY p, status
  UNION ALL SELECT 'tag', l.tag_id, m.status, count(*)
    FROM movie_tag_links l JOIN movies m ON m.id = l.movie_id GROUP BY l.tag_id, m.status
  UNION ALL SELECT 'free', free::int, status, count(*) FROM movies GROUP BY free, status
  UNION ALL SELECT 'recommended', recommended::int, status, count(*) FROM movies GROUP BY recommended, status;
  PERFORM zg_movie_gram_counts_rebuild();
  PERFORM zg_movie_search_counts_rebuild();
  PERFORM zg_movie_count_weeks_rebuild();
  UPDATE movie_columns c SET item_count = x.n
  FROM (
    SELECT c2.id, count(m.id)::int AS n FROM movie_columns c2 LEFT JOIN movies m ON m.column_id = c2.id GROUP BY c2.id
  ) AS x
  WHERE x.id = c.id AND c.item_count <> x.n;
  UPDATE movie_tags t SET item_count = x.n
  FROM (
    SELECT t2.id, count(l.tag_id)::int AS n FROM movie_tags t2 LEFT JOIN movie_tag_links l ON l.tag_id = t2.id GROUP BY t2.id
  ) AS x
  WHERE x.id = t.id AND t.item_count <> x.n;
END $$;
