-- The comments list sorts by likes and by reports (model.ts commentSorts): without an index of their own a page
-- sorted a million comments (20,000 table pages, seconds). Read backwards for "most first", like created time.
CREATE INDEX "comments_likes" ON "comments" USING btree ("tenant","likes","id");--> statement-breakpoint
CREATE INDEX "comments_reports" ON "comments" USING btree ("tenant","reports","id");
