-- Days whose rollup failed for a reason a retry will not fix (issue #48): the error, when, and how many attempts.
-- The runner goes on with the other days; an admin sees these on the statistics settings screen and retries them.
-- A day's row goes when it rolls up.
CREATE TABLE "stat_stuck_days" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"error" text NOT NULL,
	"failed_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "stat_stuck_days_tenant_day_pk" PRIMARY KEY("tenant","day")
);
