-- Lists at scale (issue #18): every filter of the review and online screens, with its view, on any page. The list
-- walks a sort index in order and keeps the movies that pass its filters; each movie it tests used to cost a read of
-- its table row (700 ms for page 50 of the review queue filtered by a column at a million movies). The two sort
-- indexes of the screens now carry the filter columns (INCLUDE): the walk tests column, platforms, recommended, free
-- and views in the index itself (an index-only scan; Drizzle cannot declare INCLUDE, so the schema lists the keys
-- only). The review queue filtered by a column walks its own index; recommended movies (a few in a hundred) have a
-- partial index in published order, which also counts them without reading rows.
DROP INDEX IF EXISTS "movies_published";--> statement-breakpoint
CREATE INDEX "movies_published" ON "movies" USING btree ("published_at" DESC NULLS LAST,"id" DESC,"status") INCLUDE ("column_id","platforms","recommended","free","views");--> statement-breakpoint
DROP INDEX IF EXISTS "movies_created";--> statement-breakpoint
CREATE INDEX "movies_created" ON "movies" USING btree ("created_at" DESC NULLS LAST,"id" DESC,"status") INCLUDE ("column_id","platforms","recommended","free","views");--> statement-breakpoint
CREATE INDEX "movies_column_created" ON "movies" USING btree ("column_id","created_at" DESC NULLS LAST,"id" DESC,"status");--> statement-breakpoint
CREATE INDEX "movies_recommended_published" ON "movies" USING btree ("published_at" DESC NULLS LAST,"id" DESC,"status") WHERE "recommended";
