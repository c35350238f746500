-- zg_stat_seen_rebuild() (migration 0125) wrote its rows with `gen` 0: an API process holding the movies' last days in
-- memory (migration 0126) reads only rows numbered past its copy's, and never saw a rebuild made while it ran. The
-- rebuild now numbers its rows from stat_seen_gen under the rollup's exclusive lock, as the rollup does. (A movie the
-- rebuild finds no view of any more, its views deleted from the rollups, keeps its old day in a running copy.)
CREATE OR REPLACE FUNCTION zg_stat_seen_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  g bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(7270772013);
  g := nextval('stat_seen_gen');
  DELETE FROM stat_seen_days;
  DELETE FROM stat_object_seen;
  INSERT INTO stat_object_seen (object_type, object_id, tenant, last_day, gen)
  SELECT d.object_type, d.object_id, d.tenant, max(d.day), g FROM stat_object_daily d
  WHERE d.views > 0 AND (d.object_type = 'movie' AND EXISTS (SELECT 1 FROM movies m WHERE m.id = d.object_id)
    OR d.object_type = 'tag' AND EXISTS (SELECT 1 FROM movie_tags t WHERE t.id = d.object_id))
  GROUP BY d.object_type, d.object_id, d.tenant;
  INSERT INTO stat_seen_days (tenant, object_type, day, n)
  SELECT s.tenant, s.object_type, s.last_day, count(*)::int FROM stat_object_seen s
  WHERE s.object_type = 'tag' OR EXISTS (SELECT 1 FROM movies m WHERE m.id = s.object_id AND m.status = 'online')
  GROUP BY s.tenant, s.object_type, s.last_day;
END $$;
