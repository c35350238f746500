-- The agents' stat reads thousands of stored sketches at once (issue #16: 1,000 agents over 90 days, 6,000 rows and
-- 4.8 MB of registers). node-postgres reads a value as text, so every read had PostgreSQL encode each sketch
-- (`encode(…, 'base64')` in the query; a bytea's own hex output costs the same): about 15 ms of the database's time
-- per read, against 2 ms to read the rows. The sketches are now also kept as that text, computed when a row is
-- written (a day's rollup writes about 7,000 of them: the same encoding once, not on every read), and the stat
-- reads the text as stored.
ALTER TABLE "stat_attributed_daily" ADD COLUMN "visitors64" text GENERATED ALWAYS AS (encode("visitors", 'base64')) STORED;--> statement-breakpoint
ALTER TABLE "stat_attributed_daily" ADD COLUMN "addresses64" text GENERATED ALWAYS AS (encode("addresses", 'base64')) STORED;--> statement-breakpoint
ALTER TABLE "stat_attributed_block_sketches" ADD COLUMN "visitors64" text GENERATED ALWAYS AS (encode("visitors", 'base64')) STORED;--> statement-breakpoint
ALTER TABLE "stat_attributed_block_sketches" ADD COLUMN "addresses64" text GENERATED ALWAYS AS (encode("addresses", 'base64')) STORED;
