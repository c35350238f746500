-- The agents' stat reads its sketches as they are stored, through a binary COPY (server/db/copy-out.ts): the base64
-- copies kept beside them (0115), for a driver that read every value as text, are no longer read. They cost every
-- rollup an encoding of each sketch it writes and a third more space than the sketches themselves.
ALTER TABLE "stat_attributed_daily" DROP COLUMN "visitors64", DROP COLUMN "addresses64";
--> statement-breakpoint
ALTER TABLE "stat_attributed_block_sketches" DROP COLUMN "visitors64", DROP COLUMN "addresses64";
