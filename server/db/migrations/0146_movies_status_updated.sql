-- The provide API's `h` (movies changed within the last h hours, newest change first): MacCMS sites collecting from us
-- ask it every few minutes, and a series gains episodes by an update, so it walks online movies by their updated time.
CREATE INDEX "movies_status_updated" ON "movies" USING btree ("status","updated_at" DESC,"id" DESC);
