-- A day rolled up again from the batches queued since (issue #50) groups the page views of those batches' visitors
-- alone, before and after the batches (visits.ts): this index finds a visitor's page views of the day without reading
-- the day's events. Page views only (the partial condition): the other events are never grouped per visitor there.
CREATE INDEX "stat_events_visitor_pageviews_idx" ON "stat_events" ("tenant", "day", "visitor_hash") WHERE "type" = 'pageview';
