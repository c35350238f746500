-- "Not seen in this period" at a million movies, its deep pages (issue #12): a page walked the online movies in their
-- order and probed each one's last day in stat_object_seen's key, about 5 us a movie (page 50 walked some 4,000:
-- 25 ms). The API now keeps the movies' last days in memory per tenant (statistics/seen.ts) and walks the movies'
-- status index alone. To follow the rollups of every instance it reads only the rows that moved since it last read:
-- each write of last days takes the next number of stat_seen_gen into the rows it moves. The rollup writes them
-- under the exclusive advisory lock 7270772013 (held until it commits) and takes the number after the lock, so the
-- numbers of committed rows are always a prefix: a reader that has every row up to the largest it sees misses none.
CREATE SEQUENCE "stat_seen_gen";--> statement-breakpoint
ALTER TABLE "stat_object_seen" ADD COLUMN "gen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "stat_object_seen_gen_idx" ON "stat_object_seen" ("tenant", "object_type", "gen");
