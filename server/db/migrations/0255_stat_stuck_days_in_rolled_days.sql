-- A day whose rollup fails for a reason a retry will not fix is recorded on its row of stat_rolled_days (the rollup's
-- record of each day) rather than in a table of its own: `error` set while it is stuck, cleared by its next rollup.
-- A stuck day never rolled up has a row with gen 0, which no cache stamp counts.
ALTER TABLE "stat_rolled_days" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "stat_rolled_days" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stat_rolled_days" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
INSERT INTO "stat_rolled_days" ("tenant", "day", "gen", "day_gen", "error", "failed_at", "attempts")
SELECT "tenant", "day", 0, 0, "error", "failed_at", "attempts" FROM "stat_stuck_days"
ON CONFLICT ("tenant", "day") DO UPDATE SET "error" = excluded."error", "failed_at" = excluded."failed_at",
  "attempts" = excluded."attempts";--> statement-breakpoint
DROP TABLE "stat_stuck_days";--> statement-breakpoint
CREATE INDEX "stat_rolled_days_stuck_idx" ON "stat_rolled_days" ("tenant", "day") WHERE "error" IS NOT NULL;
