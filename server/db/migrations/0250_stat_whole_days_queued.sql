-- A day to recompute whole is queued like a batch: batch 0 (the batches' sequence starts at 1). The rollup's work is
-- then one queue, read and taken in one statement per day.
INSERT INTO "stat_fold_queue" ("tenant", "day", "batch") SELECT "tenant", "day", 0 FROM "stat_dirty_days" ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TABLE "stat_dirty_days";
