-- A resource site serves one of MacCMS's three provide lists: videos (`provide/vod`), articles (`provide/art`, our
-- novels) or performers (`provide/actor`, our actresses). Its kind is fixed when it is added: its bindings and item
-- records name things of that kind. An article site's types bind to novel columns (`novel_column_id`); a performer
-- site's types bind to nothing (actresses have no columns). An item record names what it became, one of the three.
ALTER TABLE "collect_sources" ADD COLUMN "kind" varchar(8) DEFAULT 'vod' NOT NULL;--> statement-breakpoint
ALTER TABLE "collect_sources" ADD CONSTRAINT "collect_sources_kind" CHECK ("kind" IN ('vod', 'art', 'actor'));--> statement-breakpoint
ALTER TABLE "collect_bindings" ADD COLUMN "novel_column_id" integer REFERENCES "novel_columns"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "collect_items" ALTER COLUMN "movie_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "collect_items" ADD COLUMN "novel_id" integer REFERENCES "novels"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "collect_items" ADD COLUMN "actress_id" integer REFERENCES "actresses"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "collect_items" ADD CONSTRAINT "collect_items_one_target" CHECK (num_nonnulls("movie_id", "novel_id", "actress_id") = 1);--> statement-breakpoint
CREATE INDEX "collect_items_novel" ON "collect_items" ("novel_id");--> statement-breakpoint
CREATE INDEX "collect_items_actress" ON "collect_items" ("actress_id");--> statement-breakpoint
-- The second way an item matches: the same name (case and surrounding spaces aside) of a novel or actress here.
CREATE INDEX "collect_novels_title" ON "novels" (lower(btrim("title")));--> statement-breakpoint
CREATE INDEX "collect_actresses_name" ON "actresses" (lower(btrim("name")));--> statement-breakpoint
-- What the provide API serves of actresses: the visible ones, last changed first (MacCMS's actor_time desc).
CREATE INDEX "actresses_updated" ON "actresses" ("updated_at" DESC, "id" DESC);
