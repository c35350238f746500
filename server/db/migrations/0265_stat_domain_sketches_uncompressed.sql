-- A domain's sketches are mostly full (16,384 bytes of ranks), which pglz shrinks to about 58 %: every report read
-- then decompressed each one (the domains page reads hundreds), and every rollup compressed the day's and its blocks'
-- again. Stored uncompressed (out of line as before), a report's sketches cost the server about a third less to read
-- and the rollup nothing to compress, for about 1.7 times the space of these two tables. Values written before stay
-- compressed until their row is written again.
ALTER TABLE "stat_domain_daily" ALTER COLUMN "visitors" SET STORAGE EXTERNAL, ALTER COLUMN "addresses" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "stat_domain_blocks" ALTER COLUMN "visitors" SET STORAGE EXTERNAL, ALTER COLUMN "addresses" SET STORAGE EXTERNAL;
