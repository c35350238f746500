-- One count-trigger function for every "a counter row counts the rows that reference it" pair, instead of the
-- four twins of migrations 0003 (movie columns, movie tags), 0006 (actresses' movie count) and 0007 (novel
-- columns). The same rules: statement-level triggers with transition tables (one pass per statement whatever the
-- number of rows), deltas (count + n, so concurrent writers add up), counter rows updated one by one in id order
-- (two writers lock them in the same order). Arguments: the referencing column of the changed rows, the counter
-- table, its counter column. A new section's counter declares its triggers with it, writing no function.
-- (zg_novel_chapter_counts of 0007 stays: it keeps two sums, chapters and words, not one count.)
CREATE OR REPLACE FUNCTION zg_ref_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
  moves text;
BEGIN
  moves := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %I AS id, 1 AS n FROM new_rows', TG_ARGV[0])
    WHEN 'DELETE' THEN format('SELECT %I AS id, -1 AS n FROM old_rows', TG_ARGV[0])
    ELSE format('SELECT %1$I AS id, -1 AS n FROM old_rows UNION ALL SELECT %1$I, 1 FROM new_rows', TG_ARGV[0])
  END;
  FOR d IN EXECUTE format(
    'SELECT id, sum(n)::int AS n FROM (%s) AS moves WHERE id IS NOT NULL GROUP BY id HAVING sum(n) <> 0 ORDER BY id',
    moves)
  LOOP
    EXECUTE format('UPDATE %1$I SET %2$I = %2$I + $1 WHERE id = $2', TG_ARGV[1], TG_ARGV[2]) USING d.n, d.id;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER movies_column_counts_ins ON movies;
--> statement-breakpoint
CREATE TRIGGER movies_column_counts_ins AFTER INSERT ON movies REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('column_id', 'movie_columns', 'item_count');
--> statement-breakpoint
DROP TRIGGER movies_column_counts_upd ON movies;
--> statement-breakpoint
CREATE TRIGGER movies_column_counts_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('column_id', 'movie_columns', 'item_count');
--> statement-breakpoint
DROP TRIGGER movies_column_counts_del ON movies;
--> statement-breakpoint
CREATE TRIGGER movies_column_counts_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('column_id', 'movie_columns', 'item_count');
--> statement-breakpoint
DROP FUNCTION zg_movie_column_counts();
--> statement-breakpoint
DROP TRIGGER movie_tag_links_counts_ins ON movie_tag_links;
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_counts_ins AFTER INSERT ON movie_tag_links REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('tag_id', 'movie_tags', 'item_count');
--> statement-breakpoint
DROP TRIGGER movie_tag_links_counts_upd ON movie_tag_links;
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_counts_upd AFTER UPDATE ON movie_tag_links REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('tag_id', 'movie_tags', 'item_count');
--> statement-breakpoint
DROP TRIGGER movie_tag_links_counts_del ON movie_tag_links;
--> statement-breakpoint
CREATE TRIGGER movie_tag_links_counts_del AFTER DELETE ON movie_tag_links REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('tag_id', 'movie_tags', 'item_count');
--> statement-breakpoint
DROP FUNCTION zg_movie_tag_counts();
--> statement-breakpoint
DROP TRIGGER movie_actresses_counts_ins ON movie_actresses;
--> statement-breakpoint
CREATE TRIGGER movie_actresses_counts_ins AFTER INSERT ON movie_actresses REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('actress_id', 'actresses', 'movie_count');
--> statement-breakpoint
DROP TRIGGER movie_actresses_counts_upd ON movie_actresses;
--> statement-breakpoint
CREATE TRIGGER movie_actresses_counts_upd AFTER UPDATE ON movie_actresses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('actress_id', 'actresses', 'movie_count');
--> statement-breakpoint
DROP TRIGGER movie_actresses_counts_del ON movie_actresses;
--> statement-breakpoint
CREATE TRIGGER movie_actresses_counts_del AFTER DELETE ON movie_actresses REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('actress_id', 'actresses', 'movie_count');
--> statement-breakpoint
DROP FUNCTION zg_actress_movie_counts();
--> statement-breakpoint
DROP TRIGGER novels_column_counts_ins ON novels;
--> statement-breakpoint
CREATE TRIGGER novels_column_counts_ins AFTER INSERT ON novels REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('column_id', 'novel_columns', 'item_count');
--> statement-breakpoint
DROP TRIGGER novels_column_counts_upd ON novels;
--> statement-breakpoint
CREATE TRIGGER novels_column_counts_upd AFTER UPDATE ON novels REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('column_id', 'novel_columns', 'item_count');
--> statement-breakpoint
DROP TRIGGER novels_column_counts_del ON novels;
--> statement-breakpoint
CREATE TRIGGER novels_column_counts_del AFTER DELETE ON novels REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_ref_counts('column_id', 'novel_columns', 'item_count');
--> statement-breakpoint
DROP FUNCTION zg_novel_column_counts();
