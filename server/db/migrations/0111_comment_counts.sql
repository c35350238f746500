-- The comments list's exact totals (issue #18): the list with no filter, or filtered by any of status, target type,
-- top level (no parent) and reported (reports > 0), reads its total from these counts (at most 64 rows a tenant)
-- instead of counting at most 10,001 comments ("10,000+"). Kept like
-- movie_counts (0004) and site_user_counts (0040): statement triggers with transition tables, one upsert of signed
-- deltas per statement, rows written in key order; replies deleted with their parent (ON DELETE CASCADE) fire the
-- delete trigger too. An update that changes none of the keys writes nothing (HAVING): a like, or a report that is
-- not a comment's first.
CREATE TABLE "comment_counts" (
	"tenant" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"target_type" varchar(16) NOT NULL,
	"top_level" boolean NOT NULL,
	"reported" boolean NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "comment_counts_pk" PRIMARY KEY("tenant","status","target_type","top_level","reported")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_comment_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO comment_counts AS c (tenant, status, target_type, top_level, reported, n)
    SELECT tenant, status, target_type, parent_id IS NULL AS top_level, reports > 0 AS reported, count(*)::int FROM new_rows
    GROUP BY tenant, status, target_type, top_level, reported ORDER BY tenant, status, target_type, top_level, reported
    ON CONFLICT (tenant, status, target_type, top_level, reported) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO comment_counts AS c (tenant, status, target_type, top_level, reported, n)
    SELECT tenant, status, target_type, parent_id IS NULL AS top_level, reports > 0 AS reported, -count(*)::int FROM old_rows
    GROUP BY tenant, status, target_type, top_level, reported ORDER BY tenant, status, target_type, top_level, reported
    ON CONFLICT (tenant, status, target_type, top_level, reported) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO comment_counts AS c (tenant, status, target_type, top_level, reported, n)
    SELECT tenant, status, target_type, top_level, reported, sum(n)::int FROM (
      SELECT tenant, status, target_type, parent_id IS NULL AS top_level, reports > 0 AS reported, -1 AS n FROM old_rows
      UNION ALL SELECT tenant, status, target_type, parent_id IS NULL AS top_level, reports > 0 AS reported, 1 FROM new_rows
    ) AS d GROUP BY tenant, status, target_type, top_level, reported HAVING sum(n) <> 0 ORDER BY tenant, status, target_type, top_level, reported
    ON CONFLICT (tenant, status, target_type, top_level, reported) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER comments_counts_ins AFTER INSERT ON comments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_comment_counts();
--> statement-breakpoint
CREATE TRIGGER comments_counts_upd AFTER UPDATE ON comments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_comment_counts();
--> statement-breakpoint
CREATE TRIGGER comments_counts_del AFTER DELETE ON comments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_comment_counts();
--> statement-breakpoint
INSERT INTO comment_counts (tenant, status, target_type, top_level, reported, n)
SELECT tenant, status, target_type, parent_id IS NULL AS top_level, reports > 0 AS reported, count(*)::int FROM comments GROUP BY tenant, status, target_type, top_level, reported
ORDER BY tenant, status, target_type, top_level, reported;
