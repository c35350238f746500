-- Novels (issue #4): the column tree, the novels and their chapters.
CREATE TABLE "novel_columns" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" varchar(64) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"item_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "novel_columns_parent_name" UNIQUE NULLS NOT DISTINCT("parent_id","name")
);
--> statement-breakpoint
CREATE TABLE "novels" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(200) NOT NULL,
	"author" varchar(64) DEFAULT '' NOT NULL,
	"search_grams" text[] GENERATED ALWAYS AS (zg_title_grams(title) || zg_title_grams(author)) STORED NOT NULL,
	"cover" varchar(512) DEFAULT '' NOT NULL,
	"column_id" integer,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"serial_status" varchar(16) DEFAULT 'ongoing' NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"reject_reason" varchar(500) DEFAULT '' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"free_chapters" integer DEFAULT 0 NOT NULL,
	"chapter_count" integer DEFAULT 0 NOT NULL,
	"word_count" integer DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "novel_chapters" (
	"id" serial PRIMARY KEY NOT NULL,
	"novel_id" integer NOT NULL,
	"number" integer NOT NULL,
	"title" varchar(200) NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"word_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "novel_columns" ADD CONSTRAINT "novel_columns_parent_id_novel_columns_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."novel_columns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "novels" ADD CONSTRAINT "novels_column_id_novel_columns_id_fk" FOREIGN KEY ("column_id") REFERENCES "public"."novel_columns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "novel_chapters" ADD CONSTRAINT "novel_chapters_novel_id_novels_id_fk" FOREIGN KEY ("novel_id") REFERENCES "public"."novels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "novel_columns_parent" ON "novel_columns" USING btree ("parent_id","sort");--> statement-breakpoint
CREATE INDEX "novels_search_grams" ON "novels" USING gin ("search_grams");--> statement-breakpoint
CREATE INDEX "novels_tags" ON "novels" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "novels_status_created" ON "novels" USING btree ("status","created_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX "novels_created" ON "novels" USING btree ("created_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX "novels_updated" ON "novels" USING btree ("updated_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX "novels_column" ON "novels" USING btree ("column_id");--> statement-breakpoint
CREATE INDEX "novels_author" ON "novels" USING btree ("author");--> statement-breakpoint
CREATE UNIQUE INDEX "novel_chapters_number" ON "novel_chapters" USING btree ("novel_id","number");--> statement-breakpoint
-- item_count of novel columns: every novel in the column whatever its status, kept like the movie columns'
-- (migration 0003): statement triggers with transition tables, deltas, counter rows updated in id order.
CREATE OR REPLACE FUNCTION zg_novel_column_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR d IN SELECT column_id AS id, count(*)::int AS n FROM new_rows WHERE column_id IS NOT NULL GROUP BY column_id ORDER BY column_id LOOP
      UPDATE novel_columns SET item_count = item_count + d.n WHERE id = d.id;
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR d IN SELECT column_id AS id, count(*)::int AS n FROM old_rows WHERE column_id IS NOT NULL GROUP BY column_id ORDER BY column_id LOOP
      UPDATE novel_columns SET item_count = item_count - d.n WHERE id = d.id;
    END LOOP;
  ELSE
    FOR d IN
      SELECT column_id AS id, sum(n)::int AS n FROM (
        SELECT column_id, -1 AS n FROM old_rows UNION ALL SELECT column_id, 1 FROM new_rows
      ) AS moves WHERE column_id IS NOT NULL GROUP BY column_id HAVING sum(n) <> 0 ORDER BY column_id
    LOOP
      UPDATE novel_columns SET item_count = item_count + d.n WHERE id = d.id;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER novels_column_counts_ins AFTER INSERT ON novels REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_novel_column_counts();
--> statement-breakpoint
CREATE TRIGGER novels_column_counts_upd AFTER UPDATE ON novels REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_novel_column_counts();
--> statement-breakpoint
CREATE TRIGGER novels_column_counts_del AFTER DELETE ON novels REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_novel_column_counts();
--> statement-breakpoint
-- chapter_count and word_count of a novel: the sum over its chapters, kept by statement triggers on the chapters
-- in the transaction of the change (an import of thousands of chapters is one delta per novel). Deltas, so that
-- two writers add up; the novel rows are updated in id order. Versions are left alone: the counts are read-only,
-- so an open edit form of the novel is not made stale by a chapter change.
CREATE OR REPLACE FUNCTION zg_novel_chapter_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR d IN SELECT novel_id AS id, count(*)::int AS n, sum(word_count)::int AS w FROM new_rows GROUP BY novel_id ORDER BY novel_id LOOP
      UPDATE novels SET chapter_count = chapter_count + d.n, word_count = word_count + d.w WHERE id = d.id;
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR d IN SELECT novel_id AS id, count(*)::int AS n, sum(word_count)::int AS w FROM old_rows GROUP BY novel_id ORDER BY novel_id LOOP
      UPDATE novels SET chapter_count = chapter_count - d.n, word_count = word_count - d.w WHERE id = d.id;
    END LOOP;
  ELSE
    FOR d IN
      SELECT novel_id AS id, sum(n)::int AS n, sum(w)::int AS w FROM (
        SELECT novel_id, -1 AS n, -word_count AS w FROM old_rows UNION ALL SELECT novel_id, 1, word_count FROM new_rows
      ) AS moves GROUP BY novel_id HAVING sum(n) <> 0 OR sum(w) <> 0 ORDER BY novel_id
    LOOP
      UPDATE novels SET chapter_count = chapter_count + d.n, word_count = word_count + d.w WHERE id = d.id;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER novel_chapters_counts_ins AFTER INSERT ON novel_chapters REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_novel_chapter_counts();
--> statement-breakpoint
CREATE TRIGGER novel_chapters_counts_upd AFTER UPDATE ON novel_chapters REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_novel_chapter_counts();
--> statement-breakpoint
CREATE TRIGGER novel_chapters_counts_del AFTER DELETE ON novel_chapters REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_novel_chapter_counts();
