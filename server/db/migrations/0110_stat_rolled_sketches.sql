-- The agents' stat keeps the union of a period's older days between reads (issue #16, agents/period-figures.ts). A
-- rollup of a day rewrites that day's sketches, but the sums of the seven days before it too (their idle and
-- retained counts), and marks all eight rolled (`gen`). `sketch_gen` is the transaction that last rewrote the day's
-- own sketches: a period's union up to yesterday stays valid across the rollups of today.
ALTER TABLE "stat_rolled_days" ADD COLUMN "sketch_gen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "stat_rolled_days" SET "sketch_gen" = "gen";
