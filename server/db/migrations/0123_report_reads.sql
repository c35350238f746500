-- Reads kept warm (issues #12, #13, #16). A report over a period keeps its answer, and the parts over the period's
-- older days, between reads (statistics/report-cache.ts); what makes a read compute from nothing is a rollup of the
-- days it covers, the day's turn (every period relative to today moves), or a start (the kept values are in memory).
-- report_reads remembers, per tenant, the report queries operators made recently (the validated query as canonical
-- JSON, and the day it was made); after each rollup run, and so after a start, the rollup timer reads them again
-- (periods that ended yesterday or today moved to the current day), so the operator's next read finds its answer kept.
CREATE TABLE "report_reads" (
	"tenant" integer NOT NULL,
	"report" varchar(40) NOT NULL,
	"query" text NOT NULL,
	"day" date NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "report_reads_pkey" PRIMARY KEY ("tenant", "report", "query")
);--> statement-breakpoint
CREATE INDEX "report_reads_read_at_idx" ON "report_reads" ("read_at");
