-- Actresses (issue #4). zg_name_grams: the grams (zg_title_grams, migration 0001) of the name and of each alias,
-- never across two of them, so `search_grams @> zg_query_grams(q)` finds a 1- or 2-character Chinese or a Latin
-- search in any of her names by the GIN index; the route rechecks each name with LIKE.
CREATE OR REPLACE FUNCTION zg_name_grams(name text, aliases text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}'::text[])
  FROM unnest(array_prepend(name, coalesce(aliases, '{}'::text[]))) AS n(t), unnest(zg_title_grams(n.t)) AS g
$$;
--> statement-breakpoint
CREATE TABLE "actresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"search_grams" text[] GENERATED ALWAYS AS (zg_name_grams(name, aliases)) STORED NOT NULL,
	"avatar" varchar(512) DEFAULT '' NOT NULL,
	"birthday" date,
	"height" integer,
	"region" varchar(16),
	"debut_year" integer,
	"biography" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"sort_weight" integer DEFAULT 0 NOT NULL,
	"movie_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "actresses_search_grams" ON "actresses" USING gin ("search_grams");--> statement-breakpoint
CREATE INDEX "actresses_tags" ON "actresses" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "actresses_movie_count" ON "actresses" USING btree ("movie_count");--> statement-breakpoint
CREATE INDEX "actresses_created" ON "actresses" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "actresses_sort_weight" ON "actresses" USING btree ("sort_weight");--> statement-breakpoint
CREATE INDEX "actresses_name" ON "actresses" USING btree ("name");--> statement-breakpoint
CREATE INDEX "actresses_region" ON "actresses" USING btree ("region");--> statement-breakpoint
CREATE INDEX "actresses_debut_year" ON "actresses" USING btree ("debut_year");--> statement-breakpoint
-- Until now movie_actresses held bare numbers that named no row (the demo seed drew them at random): they cannot
-- satisfy the new foreign key and identify nobody, so they go. From here on every link names an actress.
DELETE FROM "movie_actresses";--> statement-breakpoint
ALTER TABLE "movie_actresses" ADD CONSTRAINT "movie_actresses_actress_id_actresses_id_fk" FOREIGN KEY ("actress_id") REFERENCES "public"."actresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- movie_count: linked movies whatever their status, kept like the tag counts of migration 0003 (statement
-- triggers with transition tables, deltas, counter rows updated in id order).
CREATE OR REPLACE FUNCTION zg_actress_movie_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR d IN SELECT actress_id AS id, count(*)::int AS n FROM new_rows GROUP BY actress_id ORDER BY actress_id LOOP
      UPDATE actresses SET movie_count = movie_count + d.n WHERE id = d.id;
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR d IN SELECT actress_id AS id, count(*)::int AS n FROM old_rows GROUP BY actress_id ORDER BY actress_id LOOP
      UPDATE actresses SET movie_count = movie_count - d.n WHERE id = d.id;
    END LOOP;
  ELSE
    FOR d IN
      SELECT actress_id AS id, sum(n)::int AS n FROM (
        SELECT actress_id, -1 AS n FROM old_rows UNION ALL SELECT actress_id, 1 FROM new_rows
      ) AS moves GROUP BY actress_id HAVING sum(n) <> 0 ORDER BY actress_id
    LOOP
      UPDATE actresses SET movie_count = movie_count + d.n WHERE id = d.id;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER movie_actresses_counts_ins AFTER INSERT ON movie_actresses REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_actress_movie_counts();
--> statement-breakpoint
CREATE TRIGGER movie_actresses_counts_upd AFTER UPDATE ON movie_actresses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_actress_movie_counts();
--> statement-breakpoint
CREATE TRIGGER movie_actresses_counts_del AFTER DELETE ON movie_actresses REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_actress_movie_counts();
