-- Episodes: a movie has source lines (`line`, their order), each a list of named episodes (`sort` within the line),
-- as MacCMS's vod_play_from / vod_play_url hold them. Every entry made before stood for a whole line (one source, one
-- path), so each becomes a line of one nameless episode (shown as the main feature), keeping the order it had.
ALTER TABLE "movie_plays" ADD COLUMN "line" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "movie_plays" ADD COLUMN "name" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "movie_plays" p SET "line" = o.line, "sort" = 0
FROM (
  SELECT id, (row_number() OVER (PARTITION BY movie_id ORDER BY sort, id) - 1)::int AS line FROM "movie_plays"
) o
WHERE o.id = p.id;--> statement-breakpoint
DROP INDEX "movie_plays_movie";--> statement-breakpoint
CREATE INDEX "movie_plays_movie" ON "movie_plays" USING btree ("movie_id","line","sort");
