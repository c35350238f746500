-- The incremental rollup (issue #12). The rollup recomputed a marked day whole from its raw events on every run, so
-- at a sustained rate its cost grew with the day. Each insert statement of the ingestion now takes one number from
-- stat_event_batches for all its events (stat_events.batch, null on events stored before) and, in the same
-- statement, queues (tenant, day, batch) in stat_fold_queue: committed with the events or not at all. The rollup
-- deletes a day's queued batches and folds only their events into the day's figures kept in its memory, in one
-- transaction, so a stopped run leaves them queued and a batch is never folded twice. stat_dirty_days keeps the days
-- to recompute whole (the attribution's moves, a first-seen day moved earlier, a runner without the day in memory).
-- A BRIN index finds a batch's events: batch numbers grow in the order rows are written. The attribution reads a
-- day's conversions (signups and recharges, few) on every fold: a partial index finds them without reading the day.
CREATE SEQUENCE "stat_event_batches";--> statement-breakpoint
ALTER TABLE "stat_events" ADD COLUMN "batch" bigint;--> statement-breakpoint
CREATE INDEX "stat_events_batch_idx" ON "stat_events" USING brin ("batch");--> statement-breakpoint
CREATE INDEX "stat_events_conversions_idx" ON "stat_events" ("tenant", "day") WHERE "type" IN ('signup', 'recharge');--> statement-breakpoint
CREATE TABLE "stat_fold_queue" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"batch" bigint NOT NULL,
	CONSTRAINT "stat_fold_queue_pkey" PRIMARY KEY ("tenant", "day", "batch")
);
