-- A keywords report's page of keys not read before reads those keys' rows over the period's older days (their
-- searchers' sketches, issue #12). The primary key leads with the day: twenty keywords over 88 days were 1,760 searches
-- of it (5,400 buffers at 5,000 keywords a day, p95 32 ms). Led by the keyword, each key's days are one range.
CREATE INDEX "stat_keyword_daily_key_day_idx" ON "stat_keyword_daily" ("tenant", "keyword", "day");
