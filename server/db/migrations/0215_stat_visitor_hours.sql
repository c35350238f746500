-- What the visits, bounces and new visitors of a day need of each visitor, stored per (day, tenant, domain, visitor)
-- ('' = the site): the hours of the day it viewed one page in (`once`) and more than one (`more`), as bits 0–23, and
-- whether the day counts it new (`fresh`). A rollup of a day's new batches merges their page views into these rows and
-- adds the difference to the counts, so it never reads the day's earlier events again; the rows serve only while a
-- day is rolled up from its new batches (today and yesterday), and the rollup deletes older days'. The key starts
-- with the day so that deleting them reads only their rows. Nothing reads the raw page views by visitor any more:
-- their index goes, and with it its cost on every insert.
CREATE TABLE "stat_visitor_hours" (
	"day" date NOT NULL,
	"tenant" integer NOT NULL,
	"domain" varchar(253) NOT NULL,
	"visitor" bigint NOT NULL,
	"once" integer NOT NULL,
	"more" integer NOT NULL,
	"fresh" boolean NOT NULL,
	CONSTRAINT "stat_visitor_hours_day_tenant_domain_visitor_pk" PRIMARY KEY("day","tenant","domain","visitor")
);--> statement-breakpoint
DROP INDEX IF EXISTS "stat_events_visitor_pageviews_idx";
