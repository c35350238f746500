-- Statistics at speed (issue #12): the visitor and address sketches of each domain pre-merged over aligned blocks of
-- 2^level days (level 1..8: 2 to 256 days; `start` is a multiple of 2^level days after 1970-01-01), so a report over
-- a period merges at most about 2·log2(days) sketches per domain instead of one per day. The rollup folds each day it
-- recomputes into the blocks that hold it (register-wise maximum: folding the same day again changes nothing).
-- `visitors_n`/`addresses_n` on the daily rows are the estimates of that day's sketches (the daily series reads
-- them instead of the sketches); null on rows rolled up before this migration.
CREATE TABLE "stat_domain_blocks" (
	"tenant" integer NOT NULL,
	"domain" varchar(253) NOT NULL,
	"level" smallint NOT NULL,
	"start" date NOT NULL,
	"visitors" bytea DEFAULT '\x'::bytea NOT NULL,
	"addresses" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_domain_blocks_tenant_level_start_domain_pk" PRIMARY KEY("tenant","level","start","domain")
);
--> statement-breakpoint
ALTER TABLE "stat_domain_daily" ADD COLUMN "visitors_n" integer;
--> statement-breakpoint
ALTER TABLE "stat_domain_daily" ADD COLUMN "addresses_n" integer;
