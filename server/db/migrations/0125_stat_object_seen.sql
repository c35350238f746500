-- "Not seen in this period" at a million movies (issue #12). The list was an anti-join of the online movies against
-- the period's object rollups with count(*) over (): every online movie probed the period's days, 0.7-1 s at a
-- million. Two tables the rollup keeps make its total a sum of a few rows and its page a walk of the movies' own index:
-- - stat_object_seen: the last day each movie or tag had a view (per tenant), for the objects that exist (the day
--   INCLUDEd in the key: a page's walk tests it in the index);
-- - stat_seen_days: per tenant, type and day, how many LISTED objects (online movies, every tag) were last seen that
--   day. The online movies not seen since a day are then the online count less the sum of the days from it on.
-- The rollup moves an object's last day (statistics/seen.ts); the triggers below move its count when a movie goes
-- online or offline, and take off deleted movies and tags. Both take the advisory lock 7270772013 first (the rollup
-- exclusively, the triggers shared), so that neither counts from a status or a row the other has not committed.
CREATE TABLE "stat_object_seen" (
	"object_type" varchar(16) NOT NULL,
	"object_id" integer NOT NULL,
	"tenant" integer NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "stat_object_seen_pkey" PRIMARY KEY ("object_type", "object_id", "tenant") INCLUDE ("last_day")
);--> statement-breakpoint
CREATE TABLE "stat_seen_days" (
	"tenant" integer NOT NULL,
	"object_type" varchar(16) NOT NULL,
	"day" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "stat_seen_days_pkey" PRIMARY KEY ("tenant", "object_type", "day")
);--> statement-breakpoint
-- A page over a period that ends before the last day seen asks, of each object last seen since the period began,
-- whether it had a view in the period: one search of its own days (the key puts the day before the object).
CREATE INDEX "stat_object_daily_object_idx" ON "stat_object_daily" ("tenant", "object_type", "object_id", "day");--> statement-breakpoint
-- The triggers' one write: adds `deltas` to the counts of the last days of the objects `ids` of `kind`, in every
-- tenant, under the lock shared with the rollup (held until the transaction ends), rows in key order.
CREATE OR REPLACE FUNCTION zg_stat_seen_count(kind text, ids integer[], deltas integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7270772013);
  INSERT INTO stat_seen_days AS c (tenant, object_type, day, n)
  SELECT s.tenant, kind, s.last_day, sum(m.n)::int
  FROM unnest(ids, deltas) AS m(id, n) JOIN stat_object_seen s ON s.object_type = kind AND s.object_id = m.id
  GROUP BY s.tenant, s.last_day HAVING sum(m.n) <> 0
  ORDER BY s.tenant, s.last_day
  ON CONFLICT (tenant, object_type, day) DO UPDATE SET n = c.n + excluded.n;
END $$;
--> statement-breakpoint
-- Movies whose status moves in or out of 'online': their last days' counts. The sets are taken by EXCEPT (hashed):
-- an EXISTS over a join of the two transition tables is planned as a nested loop for its first row, and an update of
-- 10,000 movies without a status change then compared every pair (14 s).
CREATE OR REPLACE FUNCTION zg_stat_seen_movie_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  went_on integer[];
  went_off integer[];
BEGIN
  went_on := ARRAY(SELECT id FROM new_rows WHERE status = 'online' EXCEPT SELECT id FROM old_rows WHERE status = 'online');
  went_off := ARRAY(SELECT id FROM old_rows WHERE status = 'online' EXCEPT SELECT id FROM new_rows WHERE status = 'online');
  IF cardinality(went_on) = 0 AND cardinality(went_off) = 0 THEN
    RETURN NULL;
  END IF;
  PERFORM zg_stat_seen_count('movie', went_on || went_off,
    array_fill(1, ARRAY[cardinality(went_on)]) || array_fill(-1, ARRAY[cardinality(went_off)]));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_seen_upd AFTER UPDATE ON movies REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_stat_seen_movie_status();
--> statement-breakpoint
-- Deleted objects `ids` of `kind`: the counts of the `listed` ones (an online movie, any tag) taken off, and their
-- rows deleted; nothing at all (not even the lock) when none of them was ever seen.
CREATE OR REPLACE FUNCTION zg_stat_seen_forget(kind text, ids integer[], listed integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM stat_object_seen s WHERE s.object_type = kind AND s.object_id = ANY (ids)) THEN
    RETURN;
  END IF;
  PERFORM zg_stat_seen_count(kind, listed, array_fill(-1, ARRAY[cardinality(listed)]));
  DELETE FROM stat_object_seen s WHERE s.object_type = kind AND s.object_id = ANY (ids);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_stat_seen_movie_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM zg_stat_seen_forget('movie', ARRAY(SELECT id FROM old_rows), ARRAY(SELECT id FROM old_rows WHERE status = 'online'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movies_seen_del AFTER DELETE ON movies REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_stat_seen_movie_delete();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_stat_seen_tag_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[] := ARRAY(SELECT id FROM old_rows);
BEGIN
  PERFORM zg_stat_seen_forget('tag', ids, ids);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movie_tags_seen_del AFTER DELETE ON movie_tags REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_stat_seen_tag_delete();
--> statement-breakpoint
-- Both tables recomputed from the object rollups and the objects (this migration, and after rows written otherwise
-- than by the rollup: the movies benchmark's seeded views).
CREATE OR REPLACE FUNCTION zg_stat_seen_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7270772013);
  DELETE FROM stat_seen_days;
  DELETE FROM stat_object_seen;
  INSERT INTO stat_object_seen (object_type, object_id, tenant, last_day)
  SELECT d.object_type, d.object_id, d.tenant, max(d.day) FROM stat_object_daily d
  WHERE d.views > 0 AND (d.object_type = 'movie' AND EXISTS (SELECT 1 FROM movies m WHERE m.id = d.object_id)
    OR d.object_type = 'tag' AND EXISTS (SELECT 1 FROM movie_tags t WHERE t.id = d.object_id))
  GROUP BY d.object_type, d.object_id, d.tenant;
  INSERT INTO stat_seen_days (tenant, object_type, day, n)
  SELECT s.tenant, s.object_type, s.last_day, count(*)::int FROM stat_object_seen s
  WHERE s.object_type = 'tag' OR EXISTS (SELECT 1 FROM movies m WHERE m.id = s.object_id AND m.status = 'online')
  GROUP BY s.tenant, s.object_type, s.last_day;
END $$;
--> statement-breakpoint
SELECT zg_stat_seen_rebuild();
