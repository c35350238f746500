-- The movie list's exact totals also for "free" and "recommended" (issue #18): a view or status with one of them
-- counted up to 10,001 movies, and with nothing narrower to read than the table, PostgreSQL scanned it (the online
-- content "not free" read 2,900 table pages, 15–23 ms). movie_counts now keeps, per status, the movies that are free
-- or not (dim 'free', key 1 or 0) and recommended or not (dim 'recommended'), in the same statements as its other
-- dimensions; a list filtered by a view or status and at most one of column, tag, platform, free and recommended
-- reads its total there.
ALTER TABLE "movie_counts" ALTER COLUMN "dim" TYPE varchar(16);--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT dim, key, status, sum(n)::int FROM (
      SELECT 'all' AS dim, 0 AS key, status, 1 AS n FROM new_rows
      UNION ALL SELECT 'column', column_id, status, 1 FROM new_rows WHERE column_id IS NOT NULL
      UNION ALL SELECT 'platform', p, status, 1 FROM (SELECT DISTINCT id, status, p FROM new_rows, unnest(platforms) AS p) AS x
      UNION ALL SELECT 'free', free::int, status, 1 FROM new_rows
      UNION ALL SELECT 'recommended', recommended::int, status, 1 FROM new_rows
    ) AS d GROUP BY dim, key, status ORDER BY dim, key, status
    ON CONFLICT (dim, key, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    -- The tag counts of deleted movies were taken off before their links went (zg_movie_delete_counts).
    INSERT INTO movie_counts AS c (dim, key, status, n)
    SELECT dim, key, status, -sum(n)::int FROM (
      SELECT 'all' AS dim, 0 AS key, status, 1 AS n FROM old_rows
      UNION ALL SELECT 'column', column_id, status, 1 FROM old_rows WHERE column_id IS NOT NULL
      UNION ALL SELECT 'platform', p, status, 1 FROM (SELECT DISTINCT id, status, p FROM old_rows, unnest(platforms) AS p) AS x
      UNION ALL SELECT 'free', free::int, status, 1 FROM old_rows
      UNION ALL SELECT 'recommended', recommended::int, status, 1 FROM old_rows
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
      UNION ALL SELECT 'free', free::int, status, -1 FROM old_rows
      UNION ALL SELECT 'recommended', recommended::int, status, -1 FROM old_rows
      UNION ALL SELECT 'all', 0, status, 1 FROM new_rows
      UNION ALL SELECT 'column', column_id, status, 1 FROM new_rows WHERE column_id IS NOT NULL
      UNION ALL SELECT 'platform', p, status, 1 FROM (SELECT DISTINCT id, status, p FROM new_rows, unnest(platforms) AS p) AS nw
      UNION ALL SELECT 'free', free::int, status, 1 FROM new_rows
      UNION ALL SELECT 'recommended', recommended::int, status, 1 FROM new_rows
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
INSERT INTO movie_counts (dim, key, status, n)
SELECT 'free', free::int, status, count(*) FROM movies GROUP BY free, status
UNION ALL SELECT 'recommended', recommended::int, status, count(*) FROM movies GROUP BY recommended, status
ORDER BY 1, 2, 3;
