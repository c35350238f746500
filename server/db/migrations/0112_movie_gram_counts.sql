-- Title searches of one or two characters at a million movies (issue #18). Such a search is one gram of
-- `title_grams` (zg_query_grams: the character, or the two), and a movie matches it exactly when its grams hold it
-- (model.ts titleContains), so its total per status is a count of the gram that can be kept: "视频" in the review
-- queue then reads two rows instead of counting 10,001 of its 25,000 matches through the GIN index and the table
-- (12,600 table pages, 100–170 ms).
--
-- 1. movie_gram_counts: movies per gram of their title and status. Kept like movie_counts (0004): statement
--    triggers with transition tables, one upsert of signed deltas per statement, rows written in key order. An
--    update that changes neither a title nor a status writes nothing (views, likes, a review's note).
CREATE TABLE "movie_gram_counts" (
	"gram" text NOT NULL,
	"status" varchar(16) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "movie_gram_counts_pk" PRIMARY KEY("gram","status")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_gram_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO movie_gram_counts AS c (gram, status, n)
    SELECT g, status, count(*)::int FROM new_rows, unnest(title_grams) AS g
    GROUP BY g, status ORDER BY g, status
    ON CONFLICT (gram, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO movie_gram_counts AS c (gram, status, n)
    SELECT g, status, -count(*)::int FROM old_rows, unnest(title_grams) AS g
    GROUP BY g, status ORDER BY g, status
    ON CONFLICT (gram, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    WITH changed AS MATERIALIZED (
      SELECT o.title_grams AS old_grams, o.status AS old_status, nw.title_grams AS new_grams, nw.status AS new_status
      FROM old_rows o JOIN new_rows nw ON nw.id = o.id
      WHERE o.title <> nw.title OR o.status <> nw.status
    )
    INSERT INTO movie_gram_counts AS c (gram, status, n)
    SELECT g, status, sum(n)::int FROM (
      SELECT g, old_status AS status, -1 AS n FROM changed, unnest(old_grams) AS g
      UNION ALL SELECT g, new_status, 1 FROM changed, unnest(new_grams) AS g
    ) AS d GROUP BY g, status HAVING sum(n) <> 0 ORDER BY g, status
    ON CONFLICT (gram, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_gram_counts_ins AFTER INSERT ON movies REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_gram_counts();
--> statement-breakpoint
CREATE TRIGGER movies_gram_counts_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_gram_counts();
--> statement-breakpoint
CREATE TRIGGER movies_gram_counts_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_gram_counts();
--> statement-breakpoint
-- zg_movie_counts_rebuild (0004) recomputes these too: the bulk seeder disables this trigger with the others.
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
  DELETE FROM movie_gram_counts;
  INSERT INTO movie_gram_counts (gram, status, n)
  SELECT g, status, count(*) FROM movies, unnest(title_grams) AS g GROUP BY g, status;
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
INSERT INTO movie_gram_counts (gram, status, n)
SELECT g, status, count(*) FROM movies, unnest(title_grams) AS g GROUP BY g, status;
--> statement-breakpoint
-- 2. The status-led sort indexes (0004) carry the title: a page of a title search in a view or status walks each
--    status's index and tests the title there (index-only, list.ts mergedPage), instead of reading a table row per
--    movie walked (page 50 of "视频" in the review queue read 41,000 table rows: 126 ms → 9.5 ms).
DROP INDEX IF EXISTS "movies_status_created";--> statement-breakpoint
DROP INDEX IF EXISTS "movies_status_published";--> statement-breakpoint
CREATE INDEX "movies_status_created" ON "movies" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC) INCLUDE ("title");--> statement-breakpoint
CREATE INDEX "movies_status_published" ON "movies" USING btree ("status","published_at" DESC NULLS LAST,"id" DESC) INCLUDE ("title");
