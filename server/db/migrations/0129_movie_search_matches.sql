-- The statistics' "not seen in this period" list searched by title (issue #12): at a million movies, "city" read its
-- 15,819 candidates from the grams' index and then from the table (14,008 table pages) for their status and
-- publication, 47–56 ms a page, since a GIN index cannot answer without the table. Its matches are now kept for the
-- terms that list searches, learned on demand as 0120's term counts are (server/core/term-counts.ts):
--
-- 1. movie_search_listed: the lowered searches whose matches are kept (at most a few dozen: movie/matches.ts
--    LISTING.kept, the least recently used leave), with their first two characters (`head`, as 0120's); `ready` once
--    counted.
-- 2. movie_search_matches: the movies whose lowered title contains the term (strpos: model.ts titleLike), by term,
--    status, publication and id. Kept as counts (`n`), which statement triggers move by -1 for a row as it was and +1
--    as it is, so a learner's count in its snapshot and the triggers' moves after it add up in any order; a movie is
--    listed where `n` is 1, and a row the triggers bring to 0 is deleted. A term's matches are one range of the key,
--    in the list's order (the newest first, or backwards the oldest).
CREATE TABLE "movie_search_listed" (
	"term" text PRIMARY KEY NOT NULL,
	"head" text NOT NULL,
	"ready" boolean DEFAULT false NOT NULL,
	"used_on" date DEFAULT current_date NOT NULL
);
--> statement-breakpoint
CREATE INDEX "movie_search_listed_head" ON "movie_search_listed" ("head");--> statement-breakpoint
CREATE TABLE "movie_search_matches" (
	"term" text NOT NULL,
	"status" varchar(16) NOT NULL,
	"published_at" timestamp with time zone,
	"id" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "movie_search_matches_key"
  ON "movie_search_matches" ("term", "status", "published_at" DESC NULLS LAST, "id" DESC) INCLUDE ("n") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_search_matches() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  written text;
  gone tid[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM movie_search_listed) THEN
    RETURN NULL;
  END IF;
  -- The written movies, signed: +1 as they are now, -1 as they were. An update counts only when it changes a title,
  -- status or publication.
  written := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT id, title, title_grams, status, published_at, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT id, title, title_grams, status, published_at, -1 FROM old_rows'
    ELSE 'WITH ch AS MATERIALIZED (
        SELECT o.id, o.title AS o_title, o.title_grams AS o_grams, o.status AS o_status, o.published_at AS o_published,
          nw.title, nw.title_grams, nw.status, nw.published_at
        FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE (o.title, o.status, o.published_at) IS DISTINCT FROM (nw.title, nw.status, nw.published_at)
      )
      SELECT id, o_title, o_grams, o_status, o_published, -1 FROM ch
      UNION ALL SELECT id, title, title_grams, status, published_at, 1 FROM ch'
  END;
  -- Each against the listed terms whose head its grams hold, rows written in key order; those left at 0 go after.
  EXECUTE format($f$
    WITH r (id, title, title_grams, status, published_at, sign) AS (%s),
    moved AS (
      INSERT INTO movie_search_matches AS m (term, status, published_at, id, n)
      SELECT t.term, r.status, r.published_at, r.id, sum(r.sign)::int
      FROM r CROSS JOIN LATERAL unnest(r.title_grams) AS g(gram) JOIN movie_search_listed t ON t.head = g.gram
      WHERE strpos(lower(r.title), t.term) > 0
      GROUP BY 1, 2, 3, 4 HAVING sum(r.sign) <> 0 ORDER BY 1, 2, 3 DESC NULLS LAST, 4 DESC
      ON CONFLICT (term, status, published_at, id) DO UPDATE SET n = m.n + excluded.n
      RETURNING ctid, n
    )
    SELECT array_agg(ctid) FROM moved WHERE n = 0
  $f$, written) INTO gone;
  -- By their places, which this transaction's lock on them keeps until it ends.
  IF gone IS NOT NULL THEN
    DELETE FROM movie_search_matches WHERE ctid = ANY(gone) AND n = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_search_matches_ins AFTER INSERT ON movies REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_search_matches();
--> statement-breakpoint
CREATE TRIGGER movies_search_matches_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_search_matches();
--> statement-breakpoint
CREATE TRIGGER movies_search_matches_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_search_matches();
--> statement-breakpoint
-- The listed terms' matches from the rows, all of them ready. The caller holds movies still.
CREATE OR REPLACE FUNCTION zg_movie_search_matches_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM movie_search_matches;
  INSERT INTO movie_search_matches (term, status, published_at, id, n)
  SELECT t.term, m.status, m.published_at, m.id, 1
  FROM movie_search_listed t JOIN movies m
    ON m.title_grams @> zg_query_grams(t.term) AND strpos(lower(m.title), t.term) > 0;
  UPDATE movie_search_listed SET ready = true WHERE NOT ready;
END $$;
--> statement-breakpoint
-- 0122's rebuild, with these matches.
CREATE OR REPLACE FUNCTION zg_movie_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE movies, movie_tag_links IN SHARE MODE;
  PERFORM zg_movie_counters_rebuild();
  PERFORM zg_movie_gram_counts_rebuild();
  PERFORM zg_movie_search_counts_rebuild();
  PERFORM zg_movie_count_weeks_rebuild();
  PERFORM zg_movie_search_matches_rebuild();
END $$;
