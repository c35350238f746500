-- stat_object_daily.viewers now holds the visitors who played (issue #52); before, every event's visitor was added.
-- The days whose raw events are still kept are recomputed whole by the next rollup; older days keep the old sketch.
INSERT INTO "stat_dirty_days" ("tenant", "day")
SELECT d."tenant", d."day" FROM "stat_object_daily" d
WHERE d."object_type" IN ('movie', 'tag')
  AND EXISTS (SELECT 1 FROM "stat_events" e WHERE e."tenant" = d."tenant" AND e."day" = d."day")
GROUP BY d."tenant", d."day"
ON CONFLICT DO NOTHING;
