-- The comments list filtered by target type (movie, novel, chapter, actress), alone or with a status, sorted by time:
-- the target index leads with the type and the target, so neither the order nor a capped total could be read from
-- it (1M comments: 1,259 buffers and p95 20 ms for novels alone, 5,775 buffers and 90 ms for pending novels).
CREATE INDEX "comments_target_type" ON "comments" USING btree ("tenant","target_type","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_status_target_type" ON "comments" USING btree ("tenant","status","target_type","created_at","id");
