-- Movie lists at a million rows (issue #3, README "Totals at scale" and "Benchmarks").
--
-- 1. Sort indexes in the order the list asks for. The list sorts `col DESC NULLS LAST, id DESC` (descending) or
--    `col ASC NULLS FIRST, id ASC` (ascending): an index declared `(col DESC NULLS LAST, id DESC)` serves both, read
--    forwards or backwards, with the id tie-break, so a page is the first rows of an index scan and no sort. The
--    indexes of 0002 (`col` ascending, nulls last, no id) served neither direction. `status` (and the column's
--    `status`) ends the key of the unfiltered sort indexes: the review and online views (status IN two values) and a
--    deep page (offset 19,980) are then index-only scans that never read the table for the rows they skip.
DROP INDEX IF EXISTS "movies_status_created";--> statement-breakpoint
DROP INDEX IF EXISTS "movies_status_published";--> statement-breakpoint
DROP INDEX IF EXISTS "movies_column";--> statement-breakpoint
DROP INDEX IF EXISTS "movies_created";--> statement-breakpoint
DROP INDEX IF EXISTS "movies_published";--> statement-breakpoint
CREATE INDEX "movies_published" ON "movies" USING btree ("published_at" DESC NULLS LAST,"id" DESC,"status");--> statement-breakpoint
CREATE INDEX "movies_created" ON "movies" USING btree ("created_at" DESC NULLS LAST,"id" DESC,"status");--> statement-breakpoint
CREATE INDEX "movies_views" ON "movies" USING btree ("views" DESC NULLS LAST,"id" DESC,"status");--> statement-breakpoint
CREATE INDEX "movies_status_published" ON "movies" USING btree ("status","published_at" DESC NULLS LAST,"id" DESC);--> statement-breakpoint
CREATE INDEX "movies_status_created" ON "movies" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC);--> statement-breakpoint
CREATE INDEX "movies_column" ON "movies" USING btree ("column_id","published_at" DESC NULLS LAST,"id" DESC,"status");--> statement-breakpoint
-- 2. Exact totals without count(*): movie_counts holds the number of movies per status, overall (dim 'all', key 0)
--    and per column, tag and platform (dim 'column' / 'tag' / 'platform', key = its id or platform key). A list
--    whose filters are a view or status plus at most one of column, tag and platform reads its total here.
CREATE TABLE "movie_counts" (
	"dim" varchar(8) NOT NULL,
	"key" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "movie_counts_dim_key_status_pk" PRIMARY KEY("dim","key","status")
);
--> statement-breakpoint
-- Kept like the counts of 0003: statement triggers with transition tables, one upsert of signed deltas per
-- statement (whatever the number of rows), rows written in key order so two writers lock them in the same order.
-- Movies: their own status, column and platforms; and when a status changes, the tag counts of their tags.
CREATE OR REPLACE FUNCTION zg_movie_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT dim, key, status, sum(n)::int FROM (
      SELECT 'all' AS dim, 0 AS key, status, 1 AS n FROM new_rows
      UNION ALL SELECT 'column', column_id, status, 1 FROM new_rows WHERE column_id IS NOT NULL
      UNION ALL SELECT 'platform', p, status, 1 FROM (SELECT DISTINCT id, status, p FROM new_rows, unnest(platforms) AS p) AS x
    ) AS d GROUP BY dim, key, status ORDER BY dim, key, status
    ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    -- The tag counts of deleted movies were taken off before their links went (zg_movie_delete_counts).
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT dim, key, status, -sum(n)::int FROM (
      SELECT 'all' AS dim, 0 AS key, status, 1 AS n FROM old_rows
      UNION ALL SELECT 'column', column_id, status, 1 FROM old_rows WHERE column_id IS NOT NULL
      UNION ALL SELECT 'platform', p, status, 1 FROM (SELECT DISTINCT id, status, p FROM old_rows, unnest(platforms) AS p) AS x
    ) AS d GROUP BY dim, key, status ORDER BY dim, key, status
    ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    WITH status_changes AS MATERIALIZED (
      SELECT o.id, o.status AS old_status, nw.status AS new_status
      FROM old_rows o JOIN new_rows nw ON nw.id = o.id WHERE o.status <> nw.status
    )
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT dim, key, status, sum(n)::int FROM (
      SELECT 'all' AS dim, 0 AS key, status, -1 AS n FROM old_rows
      UNION ALL SELECT 'column', column_id, status, -1 FROM old_rows WHERE column_id IS NOT NULL
      UNION ALL SELECT 'platform', p, status, -1 FROM (SELECT DISTINCT id, status, p FROM old_rows, unnest(platforms) AS p) AS o
      UNION ALL SELECT 'all', 0, status, 1 FROM new_rows
      UNION ALL SELECT 'column', column_id, status, 1 FROM new_rows WHERE column_id IS NOT NULL
      UNION ALL SELECT 'platform', p, status, 1 FROM (SELECT DISTINCT id, status, p FROM new_rows, unnest(platforms) AS p) AS nw
      UNION ALL SELECT 'tag', l.tag_id, s.old_status, -1
        FROM status_changes s JOIN movie_tag_links l ON l.movie_id = s.id
      UNION ALL SELECT 'tag', l.tag_id, s.new_status, 1
        FROM status_changes s JOIN movie_tag_links l ON l.movie_id = s.id
    ) AS d GROUP BY dim, key, status HAVING sum(n) <> 0 ORDER BY dim, key, status
    ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_counts_ins AFTER INSERT ON movies REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_counts();
--> statement-breakpoint
CREATE TRIGGER movies_counts_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_counts();
--> statement-breakpoint
CREATE TRIGGER movies_counts_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_counts();
--> statement-breakpoint
-- A deleted movie's links go by cascade after the movie row, when its status can no longer be read: its tag counts
-- are taken off here, before, while both are there (the link trigger below skips links of movies already gone).
CREATE OR REPLACE FUNCTION zg_movie_delete_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO movie_counts AS c (dim, key, status, n)
  SELECT 'tag', tag_id, OLD.status, -1 FROM movie_tag_links WHERE movie_id = OLD.id ORDER BY tag_id
  ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_counts_before_del BEFORE DELETE ON movies
  FOR EACH ROW EXECUTE FUNCTION zg_movie_delete_counts();
--> statement-breakpoint
-- Tag links: counted under their movie's status, read with FOR SHARE so that a concurrent status change waits
-- for this transaction (and then moves the link's count) or this one reads the new status.
CREATE OR REPLACE FUNCTION zg_movie_tag_link_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The movies are looked up by an array of their distinct ids (an index scan, in id order, whatever the size
  -- of the statement: 1,000 movies × 50 tags is one statement of 50,000 links), then joined to the links by hash.
  IF TG_OP = 'INSERT' THEN
    WITH m AS MATERIALIZED (
      SELECT id, status FROM movies WHERE id = ANY (ARRAY(SELECT DISTINCT movie_id FROM new_rows)) ORDER BY id FOR SHARE
    )
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT 'tag', l.tag_id, m.status, count(*)::int FROM new_rows l JOIN m ON m.id = l.movie_id
    GROUP BY l.tag_id, m.status ORDER BY l.tag_id, m.status
    ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    WITH m AS MATERIALIZED (
      SELECT id, status FROM movies WHERE id = ANY (ARRAY(SELECT DISTINCT movie_id FROM old_rows)) ORDER BY id FOR SHARE
    )
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT 'tag', l.tag_id, m.status, -count(*)::int FROM old_rows l JOIN m ON m.id = l.movie_id
    GROUP BY l.tag_id, m.status ORDER BY l.tag_id, m.status
    ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    WITH m AS MATERIALIZED (
      SELECT id, status FROM movies
      WHERE id = ANY (ARRAY(SELECT movie_id FROM old_rows UNION SELECT movie_id FROM new_rows)) ORDER BY id FOR SHARE
    )
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT 'tag', tag_id, status, sum(n)::int FROM (
      SELECT l.tag_id, m.status, -1 AS n FROM old_rows l JOIN m ON m.id = l.movie_id
      UNION ALL SELECT l.tag_id, m.status, 1 FROM new_rows l JOIN m ON m.id = l.movie_id
    ) AS d GROUP BY tag_id, status HAVING sum(n) <> 0 ORDER BY tag_id, status
    ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_status_counts_ins AFTER INSERT ON movie_tag_links REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_tag_link_counts();
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_status_counts_upd AFTER UPDATE ON movie_tag_links REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_tag_link_counts();
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_status_counts_del AFTER DELETE ON movie_tag_links REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_tag_link_counts();
--> statement-breakpoint
-- Every count the movie triggers keep (movie_counts, movie_columns.item_count, movie_tags.item_count), recomputed
-- from the rows in a few statements: after a bulk load that ran with those triggers disabled (server/seed/bulk.ts),
-- or to repair. Writers wait meanwhile (SHARE locks), so the result is exact.
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
    FROM movie_tag_links l JOIN movies m ON m.id = l.movie_id GROUP BY l.tag_id, m.status;
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
--> statement-breakpoint
SELECT zg_movie_counts_rebuild();
