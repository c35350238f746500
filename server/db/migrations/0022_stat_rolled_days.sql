-- Report answers kept between reads (issue #12): each day's rollup records the transaction that last recomputed it.
-- A kept report answer is valid while no day of its periods has a newer `gen` than when it was computed (the rollup
-- recomputes days one at a time under its advisory lock, so the transactions commit in the order of their ids).
CREATE TABLE "stat_rolled_days" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"gen" bigint NOT NULL,
	CONSTRAINT "stat_rolled_days_tenant_day_pk" PRIMARY KEY("tenant","day")
);
