-- Collection (采集) from resource sites speaking MacCMS's provide API: the sites, how their types map onto our
-- columns, each run with its counts and per-item log, and what was last collected for each remote item (the
-- per-field hashes that tell a field the operator edited by hand from one only collection wrote).
CREATE TABLE "collect_sources" (
  "id" serial PRIMARY KEY,
  "name" varchar(64) NOT NULL,
  "url" varchar(512) NOT NULL,
  "format" varchar(8) DEFAULT 'json' NOT NULL,
  "trusted" boolean DEFAULT false NOT NULL,
  "image_mode" varchar(8) DEFAULT 'remote' NOT NULL,
  "schedule_minutes" integer DEFAULT 0 NOT NULL,
  "schedule_hours" integer DEFAULT 24 NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "next_run_at" timestamp with time zone,
  "claimed_until" timestamp with time zone,
  "fail_count" integer DEFAULT 0 NOT NULL,
  "last_error" varchar(512) DEFAULT '' NOT NULL,
  "last_run_at" timestamp with time zone,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "collect_sources_name" ON "collect_sources" ("name");--> statement-breakpoint
CREATE INDEX "collect_sources_due" ON "collect_sources" ("next_run_at") WHERE "enabled" AND "schedule_minutes" > 0;--> statement-breakpoint
CREATE TABLE "collect_bindings" (
  "source_id" integer NOT NULL REFERENCES "collect_sources"("id") ON DELETE CASCADE,
  "remote_type_id" integer NOT NULL,
  "remote_type_name" varchar(64) DEFAULT '' NOT NULL,
  "column_id" integer REFERENCES "movie_columns"("id") ON DELETE SET NULL,
  "skipped" boolean DEFAULT false NOT NULL,
  PRIMARY KEY ("source_id", "remote_type_id")
);--> statement-breakpoint
CREATE TABLE "collect_runs" (
  "id" serial PRIMARY KEY,
  "source_id" integer NOT NULL REFERENCES "collect_sources"("id") ON DELETE CASCADE,
  "kind" varchar(8) NOT NULL,
  "params" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "dry_run" boolean DEFAULT false NOT NULL,
  "status" varchar(12) DEFAULT 'running' NOT NULL,
  "started_by" integer,
  "started_by_name" varchar(64) DEFAULT '' NOT NULL,
  "pages_done" integer DEFAULT 0 NOT NULL,
  "page_count" integer DEFAULT 0 NOT NULL,
  "added" integer DEFAULT 0 NOT NULL,
  "updated" integer DEFAULT 0 NOT NULL,
  "skipped" integer DEFAULT 0 NOT NULL,
  "failed" integer DEFAULT 0 NOT NULL,
  "error" varchar(64) DEFAULT '' NOT NULL,
  "error_detail" varchar(256) DEFAULT '' NOT NULL,
  "log" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "cancel_requested" boolean DEFAULT false NOT NULL,
  "started_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "collect_runs_source" ON "collect_runs" ("source_id", "id" DESC);--> statement-breakpoint
CREATE TABLE "collect_items" (
  "source_id" integer NOT NULL REFERENCES "collect_sources"("id") ON DELETE CASCADE,
  "remote_id" integer NOT NULL,
  "movie_id" integer NOT NULL REFERENCES "movies"("id") ON DELETE CASCADE,
  "hashes" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "collected_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("source_id", "remote_id")
);--> statement-breakpoint
CREATE INDEX "collect_items_movie" ON "collect_items" ("movie_id");--> statement-breakpoint
-- The second way an item matches: the same title (case and surrounding spaces aside) of a movie already here.
CREATE INDEX "collect_movies_title" ON "movies" (lower(btrim("title")));
