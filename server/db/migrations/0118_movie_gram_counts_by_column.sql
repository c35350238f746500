-- A title search of one or two characters within a column at a million movies (issue #18). 0112 keeps the movies per
-- gram and status; a column filter beside the search had its total counted (at most 10,001 matches through the grams'
-- GIN index ANDed with the column's, then a table page per match): "视频" among the online movies of one column, 4,900
-- matches, 26–46 ms p50. The counts now also split by column (0 for none), so that total is a few rows too; the
-- total of a search in a view or status alone sums a gram's rows over the columns (at most one per column).
--
-- An update that changes a title, a status or a column moves the movie's grams; any other update writes nothing.
-- No movie is written meanwhile (its trigger would still upsert on the old key).
LOCK TABLE movies IN SHARE MODE;--> statement-breakpoint
ALTER TABLE "movie_gram_counts" ADD COLUMN "column_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "movie_gram_counts" DROP CONSTRAINT "movie_gram_counts_pk";--> statement-breakpoint
DELETE FROM "movie_gram_counts";--> statement-breakpoint
INSERT INTO movie_gram_counts (gram, status, column_id, n)
SELECT g, status, coalesce(column_id, 0), count(*) FROM movies, unnest(title_grams) AS g GROUP BY 1, 2, 3;
--> statement-breakpoint
ALTER TABLE "movie_gram_counts" ADD CONSTRAINT "movie_gram_counts_pk" PRIMARY KEY("gram","status","column_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_gram_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO movie_gram_counts AS c (gram, status, column_id, n)
    SELECT g, status, coalesce(column_id, 0), count(*)::int FROM new_rows, unnest(title_grams) AS g
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (gram, status, column_id) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO movie_gram_counts AS c (gram, status, column_id, n)
    SELECT g, status, coalesce(column_id, 0), -count(*)::int FROM old_rows, unnest(title_grams) AS g
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (gram, status, column_id) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    WITH changed AS MATERIALIZED (
      SELECT o.title_grams AS old_grams, o.status AS old_status, coalesce(o.column_id, 0) AS old_column,
        nw.title_grams AS new_grams, nw.status AS new_status, coalesce(nw.column_id, 0) AS new_column
      FROM old_rows o JOIN new_rows nw ON nw.id = o.id
      WHERE o.title <> nw.title OR o.status <> nw.status OR o.column_id IS DISTINCT FROM nw.column_id
    )
    INSERT INTO movie_gram_counts AS c (gram, status, column_id, n)
    SELECT g, status, column_id, sum(n)::int FROM (
      SELECT g, old_status AS status, old_column AS column_id, -1 AS n FROM changed, unnest(old_grams) AS g
      UNION ALL SELECT g, new_status, new_column, 1 FROM changed, unnest(new_grams) AS g
    ) AS d GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (gram, status, column_id) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- 0114's rebuild with the grams split by column.
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
  DELETE FROM movie_gram_counts;
  INSERT INTO movie_gram_counts (gram, status, column_id, n)
  SELECT g, status, coalesce(column_id, 0), count(*) FROM movies, unnest(title_grams) AS g GROUP BY 1, 2, 3;
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
