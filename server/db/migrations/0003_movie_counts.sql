-- Item counts of columns and tags, kept by statement-level triggers with transition tables: one UPDATE per
-- statement whatever the number of rows (a batch of 1,000 or a seed of 1,000,000), in the same transaction as
-- the change, and as deltas (item_count + n), so concurrent writers add up instead of overwriting each other.
-- The counter rows are updated one by one in id order, so two writers lock them in the same order: no deadlock.
CREATE OR REPLACE FUNCTION zg_movie_column_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR d IN SELECT column_id AS id, count(*)::int AS n FROM new_rows WHERE column_id IS NOT NULL GROUP BY column_id ORDER BY column_id LOOP
      UPDATE movie_columns SET item_count = item_count + d.n WHERE id = d.id;
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR d IN SELECT column_id AS id, count(*)::int AS n FROM old_rows WHERE column_id IS NOT NULL GROUP BY column_id ORDER BY column_id LOOP
      UPDATE movie_columns SET item_count = item_count - d.n WHERE id = d.id;
    END LOOP;
  ELSE
    FOR d IN
      SELECT column_id AS id, sum(n)::int AS n FROM (
        SELECT column_id, -1 AS n FROM old_rows UNION ALL SELECT column_id, 1 FROM new_rows
      ) AS moves WHERE column_id IS NOT NULL GROUP BY column_id HAVING sum(n) <> 0 ORDER BY column_id
    LOOP
      UPDATE movie_columns SET item_count = item_count + d.n WHERE id = d.id;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_column_counts_ins AFTER INSERT ON movies REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_column_counts();
--> statement-breakpoint
CREATE TRIGGER movies_column_counts_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_column_counts();
--> statement-breakpoint
CREATE TRIGGER movies_column_counts_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_column_counts();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_movie_tag_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR d IN SELECT tag_id AS id, count(*)::int AS n FROM new_rows WHERE tag_id IS NOT NULL GROUP BY tag_id ORDER BY tag_id LOOP
      UPDATE movie_tags SET item_count = item_count + d.n WHERE id = d.id;
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR d IN SELECT tag_id AS id, count(*)::int AS n FROM old_rows WHERE tag_id IS NOT NULL GROUP BY tag_id ORDER BY tag_id LOOP
      UPDATE movie_tags SET item_count = item_count - d.n WHERE id = d.id;
    END LOOP;
  ELSE
    FOR d IN
      SELECT tag_id AS id, sum(n)::int AS n FROM (
        SELECT tag_id, -1 AS n FROM old_rows UNION ALL SELECT tag_id, 1 FROM new_rows
      ) AS moves WHERE tag_id IS NOT NULL GROUP BY tag_id HAVING sum(n) <> 0 ORDER BY tag_id
    LOOP
      UPDATE movie_tags SET item_count = item_count + d.n WHERE id = d.id;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_counts_ins AFTER INSERT ON movie_tag_links REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_tag_counts();
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_counts_upd AFTER UPDATE ON movie_tag_links REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_tag_counts();
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_counts_del AFTER DELETE ON movie_tag_links REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_movie_tag_counts();
