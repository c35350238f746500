-- Every keyword's sums over a period, read with nothing cached (a period nobody read lately), summed each keyword's
-- row of every day of the period. `stat_keyword_blocks` holds them pre-added over aligned blocks of 2^level days
-- (level 1..8: 2 to 256 days; `start` a multiple of 2^level days after 1970-01-01), as stat_domain_blocks holds the
-- domains' sketches: a period reads about 2·log2(days) pieces a keyword.
-- Kept by triggers on stat_keyword_daily: each statement's rows add their differences to the blocks holding their
-- day (statement-level with transition tables: one pass per statement, however many rows; the rows added in key order,
-- so two rollups of different days lock the blocks they share in the same order). A block whose sums fall to zero
-- (every day of its keyword deleted) goes. Pages are left 30 % free so that a block's sums change in place (a HOT
-- update, no new index entry): a rollup of thousands of keywords changes eight times as many blocks.
CREATE TABLE "stat_keyword_blocks" (
	"tenant" integer NOT NULL,
	"level" smallint NOT NULL,
	"start" date NOT NULL,
	"keyword" varchar(100) NOT NULL,
	"searches" integer DEFAULT 0 NOT NULL,
	"zero_results" integer DEFAULT 0 NOT NULL,
	"results_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stat_keyword_blocks_pk" PRIMARY KEY("tenant","level","start","keyword")
) WITH (fillfactor = 70);
--> statement-breakpoint
CREATE FUNCTION zg_keyword_blocks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moves text;
BEGIN
  moves := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT tenant, day, keyword, searches, zero_results, results_sum FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT tenant, day, keyword, -searches, -zero_results, -results_sum FROM old_rows'
    ELSE 'SELECT tenant, day, keyword, searches, zero_results, results_sum FROM new_rows UNION ALL '
      || 'SELECT tenant, day, keyword, -searches, -zero_results, -results_sum FROM old_rows'
  END;
  EXECUTE format($q$
    INSERT INTO stat_keyword_blocks AS b (tenant, level, start, keyword, searches, zero_results, results_sum)
    SELECT d.tenant, l.level, date '1970-01-01' + ((d.day - date '1970-01-01') >> l.level << l.level), d.keyword,
      sum(d.searches), sum(d.zero_results), sum(d.results_sum)
    FROM (%s) AS d (tenant, day, keyword, searches, zero_results, results_sum), generate_series(1, 8) AS l (level)
    GROUP BY 1, 2, 3, 4
    HAVING sum(d.searches) <> 0 OR sum(d.zero_results) <> 0 OR sum(d.results_sum) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (tenant, level, start, keyword) DO UPDATE SET searches = b.searches + excluded.searches,
      zero_results = b.zero_results + excluded.zero_results, results_sum = b.results_sum + excluded.results_sum
  $q$, moves);
  IF TG_OP = 'DELETE' THEN
    DELETE FROM stat_keyword_blocks b
    USING (SELECT DISTINCT tenant, day, keyword FROM old_rows) o, generate_series(1, 8) AS l (level)
    WHERE b.tenant = o.tenant AND b.level = l.level
      AND b.start = date '1970-01-01' + ((o.day - date '1970-01-01') >> l.level << l.level)
      AND b.keyword = o.keyword AND b.searches = 0 AND b.zero_results = 0 AND b.results_sum = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stat_keyword_blocks_ins AFTER INSERT ON stat_keyword_daily REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_keyword_blocks();
--> statement-breakpoint
CREATE TRIGGER stat_keyword_blocks_upd AFTER UPDATE ON stat_keyword_daily REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_keyword_blocks();
--> statement-breakpoint
CREATE TRIGGER stat_keyword_blocks_del AFTER DELETE ON stat_keyword_daily REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_keyword_blocks();
--> statement-breakpoint
INSERT INTO stat_keyword_blocks (tenant, level, start, keyword, searches, zero_results, results_sum)
SELECT d.tenant, l.level, date '1970-01-01' + ((d.day - date '1970-01-01') >> l.level << l.level), d.keyword,
  sum(d.searches), sum(d.zero_results), sum(d.results_sum)
FROM stat_keyword_daily d, generate_series(1, 8) AS l (level)
GROUP BY 1, 2, 3, 4;
