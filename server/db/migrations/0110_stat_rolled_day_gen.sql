-- Kept parts of reports over a period's older days (issue #16 agents/period-figures.ts, issue #13 ad/reports.ts). A
-- rollup of a day recomputes that day's rows, but also rewrites the idle and retained counts of the seven days before
-- it, and marks all eight rolled (`gen`). `day_gen` is the transaction that last recomputed the day itself: what was
-- computed from a day's own rows (its sketches, an ad's impressions) stays valid across the rollups of later days.
ALTER TABLE "stat_rolled_days" ADD COLUMN "day_gen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "stat_rolled_days" SET "day_gen" = "gen";
