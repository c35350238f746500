-- Content searches of the comments list at a million comments (issue #18). A search matching more than 10,000
-- comments counted 10,001 of them through the content grams' index (0108) and a table page each ("10,000+", 好看
-- 4,000 buffers, 16–25 ms): a GIN index gives no count without the table. As for the movies' long title searches
-- (0120), the counts are kept for the searches operators make, learned when a search turns out to match more than
-- the cap, per tenant:
--
-- 1. comment_search_terms: the lowered searches whose counts are kept (at most a hundred a tenant, the least
--    recently searched leave), `ready` once counted; `common` when it matched too many to count once (it is then
--    neither kept nor tried again until it leaves).
-- 2. comment_search_counts: comments per tenant, term and status whose content contains the term in any case (ILIKE,
--    the list's own test, server/core/shared.ts containsAnyCase). Kept by statement triggers like comment_counts
--    (0111): each written comment is tested against its tenant's terms, ready or not (not common); nothing while none
--    is kept. An update counts only when it changes a content or a status.
--
-- Comments are written by the site's visitors all day, so a term is learned without locking them out
-- (comment/terms.ts, server/core/term-counts.ts, as the movies' terms are): the term is registered first (from then on every writer counts it), the transactions in
-- flight at that moment are waited for, then one statement counts the matches in its snapshot and adds to each kept
-- count the difference between that and what the count held in the same snapshot: writes committed before it are in
-- both (once), writes after it only in the count. The same statement marks the term ready; repeating it changes
-- nothing.
CREATE TABLE "comment_search_terms" (
	"tenant" integer NOT NULL,
	"term" text NOT NULL,
	"ready" boolean DEFAULT false NOT NULL,
	"common" boolean DEFAULT false NOT NULL,
	"used_on" date DEFAULT current_date NOT NULL,
	CONSTRAINT "comment_search_terms_pk" PRIMARY KEY("tenant","term")
);
--> statement-breakpoint
CREATE TABLE "comment_search_counts" (
	"tenant" integer NOT NULL,
	"term" text NOT NULL,
	"status" varchar(16) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "comment_search_counts_pk" PRIMARY KEY("tenant","term","status")
);
--> statement-breakpoint
-- The LIKE pattern of "contains `t`": its pattern characters escaped (shared.ts containsPattern).
CREATE OR REPLACE FUNCTION zg_contains_pattern(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT '%' || replace(replace(replace(t, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_comment_search_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  written text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM comment_search_terms) THEN
    RETURN NULL;
  END IF;
  written := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT tenant, content, status, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT tenant, content, status, -1 FROM old_rows'
    ELSE 'WITH ch AS MATERIALIZED (
        SELECT o.tenant AS o_tenant, o.content AS o_content, o.status AS o_status, nw.tenant, nw.content, nw.status
        FROM old_rows o JOIN new_rows nw ON nw.id = o.id
        WHERE (o.tenant, o.content, o.status) IS DISTINCT FROM (nw.tenant, nw.content, nw.status)
      )
      SELECT o_tenant, o_content, o_status, -1 FROM ch UNION ALL SELECT tenant, content, status, 1 FROM ch'
  END;
  EXECUTE format($f$
    INSERT INTO comment_search_counts AS c (tenant, term, status, n)
    SELECT r.tenant, t.term, r.status, sum(r.sign)::int
    FROM (%s) AS r (tenant, content, status, sign) JOIN comment_search_terms t ON t.tenant = r.tenant AND NOT t.common
    WHERE r.content ILIKE zg_contains_pattern(t.term)
    GROUP BY 1, 2, 3 HAVING sum(r.sign) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (tenant, term, status) DO UPDATE SET n = c.n + excluded.n
  $f$, written);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER comments_search_counts_ins AFTER INSERT ON comments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_comment_search_counts();
--> statement-breakpoint
CREATE TRIGGER comments_search_counts_upd AFTER UPDATE ON comments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_comment_search_counts();
--> statement-breakpoint
CREATE TRIGGER comments_search_counts_del AFTER DELETE ON comments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_comment_search_counts();
