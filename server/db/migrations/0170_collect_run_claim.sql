-- A run's claim: the process working on a run renews `claimed_until` as it goes (every page). A run still `running`
-- whose claim has lapsed belongs to a process that stopped (a restart, a kill -9): it is marked failed, and its
-- source is free again, by whichever instance looks first. Runs running when this is applied get one claim's time.
ALTER TABLE "collect_runs" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
UPDATE "collect_runs" SET "claimed_until" = now() + interval '5 minutes' WHERE "status" = 'running';--> statement-breakpoint
CREATE INDEX "collect_runs_running" ON "collect_runs" ("claimed_until") WHERE "status" = 'running';
