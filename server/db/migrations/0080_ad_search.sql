-- Lists at scale (issues #13, #18): the materials list's "landing URL contains" and title search use the bigram index
-- the other lists use (zg_title_grams, migration 0001; comments 0071) instead of reading every material with
-- ILIKE '%…%'. The index narrows, ILIKE rechecks. Expression indexes: no stored column, no table rewrite.
CREATE INDEX "ads_landing_grams" ON "ads" USING gin (zg_title_grams("landing_url"));
--> statement-breakpoint
CREATE INDEX "ads_title_grams" ON "ads" USING gin (zg_title_grams("title"));
--> statement-breakpoint
-- One position's materials sorted by their end (the list filtered by position, sorted by end): read in order from
-- this index instead of walking every material's end and dropping the other positions' (8,000 buffers at 10,000).
CREATE INDEX "ads_tenant_position_end" ON "ads" USING btree ("tenant","position_id","end_at");
