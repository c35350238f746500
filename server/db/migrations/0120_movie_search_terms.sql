-- Title searches of three or more characters at a million movies (issue #18). Their total was counted through the
-- grams' GIN index and the table: at most 10,001 matches, each a table page ("city" in the review queue: 15,819
-- candidates, 14,000 table pages, 30–55 ms), since a GIN index cannot answer a count without the table. A kept count
-- of every three- and four-character substring of every title would answer them but grows with the titles' variety
-- (millions of rows for a real catalogue). So the counts are kept for the terms operators search, learned on demand:
--
-- 1. movie_search_terms: the lowered searches whose counts are kept (at most a few hundred, the least recently used
--    leave), with their first two characters (`head`; one for a term of one): a title can hold a term only when its
--    grams hold the head; `ready` once counted.
-- 2. movie_search_counts: movies per term, status and column (0 for none) whose lowered title contains the term
--    (strpos: the same test as model.ts titleLike). Kept by statement triggers like movie_gram_counts (0112, 0118):
--    each written title is tested against the terms whose head its grams hold (ready or not), nothing at all while no
--    term is kept.
--    movie_search_weeks: the same movies per term, status and week (UTC, from Monday) of their creation and of their
--    publication: a deep page of the search starts its status walks at the week that holds its first row (list.ts
--    mergedPage) instead of walking every movie before it (page 50 of "city" in the review queue: 130,000 index
--    entries tested, or its 15,819 candidates read from the table, 30–40 ms).
-- 3. The API learns a term (movie/totals.ts learnTerm, server/core/term-counts.ts) without holding writers back: it
--    registers the term (not `ready`; from then on each write counts it), waits for the writes in flight, then counts
--    the matches in one snapshot and adds what the kept counts lack against the same snapshot. It learns a search of
--    three or more characters whose grams' kept counts allow enough matches that counting them costs (termTotal),
--    and one of one or two characters (whose total its gram's count gives) for its weeks, when a deep page of it is
--    read (termPageStart). The rebuild below recomputes every term's counts under its lock and makes them ready.
CREATE TABLE "movie_search_terms" (
	"term" text PRIMARY KEY NOT NULL,
	"head" text NOT NULL,
	"ready" boolean DEFAULT false NOT NULL,
	"used_on" date DEFAULT current_date NOT NULL
);
--> statement-breakpoint
CREATE INDEX "movie_search_terms_head" ON "movie_search_terms" ("head");--> statement-breakpoint
CREATE TABLE "movie_search_counts" (
	"term" text NOT NULL,
	"status" varchar(16) NOT NULL,
	"column_id" integer DEFAULT 0 NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "movie_search_counts_pk" PRIMARY KEY("term","status","column_id")
);
--> statement-breakpoint
CREATE TABLE "movie_search_weeks" (
	"term" text NOT NULL,
	"sort" varchar(16) NOT NULL,
	"status" varchar(16) NOT NULL,
	"week" date NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "movie_search_weeks_pk" PRIMARY KEY("term","sort","status","week")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_search_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  written text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM movie_search_terms) THEN
    RETURN NULL;
  END IF;
  -- The written movies, signed: +1 as they are now, -1 as they were. An update counts only when it changes what the
  -- counts or weeks hold (a title, status, column or sort date); views, likes and a review's note write nothing.
  written := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT title, title_grams, status, column_id, created_at, published_at, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT title, title_grams, status, column_id, created_at, published_at, -1 FROM old_rows'
    ELSE 'WITH ch AS MATERIALIZED (
        SELECT o.title AS o_title, o.title_grams AS o_grams, o.status AS o_status, o.column_id AS o_column,
          o.created_at AS o_created, o.published_at AS o_published, nw.title, nw.title_grams, nw.status,
          nw.column_id, nw.created_at, nw.published_at
        FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE (o.title, o.status, o.column_id, o.created_at, o.published_at)
          IS DISTINCT FROM (nw.title, nw.status, nw.column_id, nw.created_at, nw.published_at)
      )
      SELECT o_title, o_grams, o_status, o_column, o_created, o_published, -1 FROM ch
      UNION ALL SELECT title, title_grams, status, column_id, created_at, published_at, 1 FROM ch'
  END;
  -- Each against the kept terms whose head its grams hold; the deltas summed per key, rows written in key order.
  EXECUTE format($f$
    WITH r (title, title_grams, status, column_id, created_at, published_at, sign) AS (%s),
    d AS MATERIALIZED (
      SELECT t.term, r.status, coalesce(r.column_id, 0) AS column_id, r.created_at, r.published_at, r.sign
      FROM r CROSS JOIN LATERAL unnest(r.title_grams) AS g(gram) JOIN movie_search_terms t ON t.head = g.gram
      WHERE strpos(lower(r.title), t.term) > 0
    ),
    counted AS (
      INSERT INTO movie_search_counts AS c (term, status, column_id, n)
      SELECT term, status, column_id, sum(sign)::int FROM d GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (term, status, column_id) DO UPDATE SET n = c.n + excluded.n
    )
    INSERT INTO movie_search_weeks AS w (term, sort, status, week, n)
    SELECT term, sort, status, week, sum(sign)::int FROM (
      SELECT term, 'created' AS sort, status, date_trunc('week', created_at AT TIME ZONE 'UTC')::date AS week, sign
      FROM d
      UNION ALL SELECT term, 'published', status, date_trunc('week', published_at AT TIME ZONE 'UTC')::date, sign
      FROM d WHERE published_at IS NOT NULL
    ) AS x GROUP BY 1, 2, 3, 4 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (term, sort, status, week) DO UPDATE SET n = w.n + excluded.n
  $f$, written);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_search_counts_ins AFTER INSERT ON movies REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_search_counts();
--> statement-breakpoint
CREATE TRIGGER movies_search_counts_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_search_counts();
--> statement-breakpoint
CREATE TRIGGER movies_search_counts_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_search_counts();
--> statement-breakpoint
-- The kept terms' counts and weeks from the rows: all of them, or one term's (`one_term`). The caller holds movies
-- still.
CREATE OR REPLACE FUNCTION zg_movie_search_counts_rebuild(one_term text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM movie_search_counts WHERE one_term IS NULL OR term = one_term;
  DELETE FROM movie_search_weeks WHERE one_term IS NULL OR term = one_term;
  WITH d AS MATERIALIZED (
    SELECT t.term, m.status, coalesce(m.column_id, 0) AS column_id, m.created_at, m.published_at
    FROM movie_search_terms t JOIN movies m
      ON m.title_grams @> zg_query_grams(t.term) AND strpos(lower(m.title), t.term) > 0
    WHERE one_term IS NULL OR t.term = one_term
  ),
  counted AS (
    INSERT INTO movie_search_counts (term, status, column_id, n)
    SELECT term, status, column_id, count(*)::int FROM d GROUP BY 1, 2, 3
  )
  INSERT INTO movie_search_weeks (term, sort, status, week, n)
  SELECT term, 'created', status, date_trunc('week', created_at AT TIME ZONE 'UTC')::date, count(*)::int
  FROM d GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT term, 'published', status, date_trunc('week', published_at AT TIME ZONE 'UTC')::date, count(*)::int
  FROM d WHERE published_at IS NOT NULL GROUP BY 1, 2, 3, 4;
  UPDATE movie_search_terms SET ready = true WHERE (one_term IS NULL OR term = one_term) AND NOT ready;
END $$;
--> statement-breakpoint
-- The rebuild (0004, 0114, 0118) as parts, each named once: the counters and item counts, 0118's gram counts, these
-- terms' counts; zg_movie_counts_rebuild locks and calls them, so a later kept count adds one line to it.
CREATE OR REPLACE FUNCTION zg_movie_gram_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM movie_gram_counts;
  INSERT INTO movie_gram_counts (gram, status, column_id, n)
  SELECT g, status, coalesce(column_id, 0), count(*) FROM movies, unnest(title_grams) AS g GROUP BY 1, 2, 3;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_counters_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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
CREATE OR REPLACE FUNCTION zg_movie_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE movies, movie_tag_links IN SHARE MODE;
  PERFORM zg_movie_counters_rebuild();
  PERFORM zg_movie_gram_counts_rebuild();
  PERFORM zg_movie_search_counts_rebuild();
END $$;
