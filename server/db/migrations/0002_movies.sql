CREATE TABLE "movie_actresses" (
	"movie_id" integer NOT NULL,
	"actress_id" integer NOT NULL,
	CONSTRAINT "movie_actresses_movie_id_actress_id_pk" PRIMARY KEY("movie_id","actress_id")
);
--> statement-breakpoint
CREATE TABLE "movie_columns" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" varchar(64) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"item_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "movie_columns_parent_name" UNIQUE NULLS NOT DISTINCT("parent_id","name")
);
--> statement-breakpoint
CREATE TABLE "movie_plays" (
	"id" serial PRIMARY KEY NOT NULL,
	"movie_id" integer NOT NULL,
	"source_id" integer NOT NULL,
	"path" varchar(1024) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "movie_tag_links" (
	"movie_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "movie_tag_links_movie_id_tag_id_pk" PRIMARY KEY("movie_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "movie_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(32) NOT NULL,
	"group" varchar(32) DEFAULT '' NOT NULL,
	"hot" boolean DEFAULT false NOT NULL,
	"item_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "movies" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(200) NOT NULL,
	"title_grams" text[] GENERATED ALWAYS AS (zg_title_grams(title)) STORED NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover" varchar(512) DEFAULT '' NOT NULL,
	"column_id" integer,
	"platforms" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"duration" integer DEFAULT 0 NOT NULL,
	"release_date" date,
	"free" boolean DEFAULT true NOT NULL,
	"sort_weight" integer DEFAULT 0 NOT NULL,
	"recommended" boolean DEFAULT false NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL,
	"comments" integer DEFAULT 0 NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"reject_reason" varchar(500) DEFAULT '' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(32) NOT NULL,
	"base_url" varchar(512) NOT NULL,
	"type" varchar(8) DEFAULT 'hls' NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "movie_actresses" ADD CONSTRAINT "movie_actresses_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movie_columns" ADD CONSTRAINT "movie_columns_parent_id_movie_columns_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."movie_columns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movie_plays" ADD CONSTRAINT "movie_plays_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movie_plays" ADD CONSTRAINT "movie_plays_source_id_video_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."video_sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movie_tag_links" ADD CONSTRAINT "movie_tag_links_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movie_tag_links" ADD CONSTRAINT "movie_tag_links_tag_id_movie_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."movie_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movies" ADD CONSTRAINT "movies_column_id_movie_columns_id_fk" FOREIGN KEY ("column_id") REFERENCES "public"."movie_columns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "movie_actresses_actress" ON "movie_actresses" USING btree ("actress_id");--> statement-breakpoint
CREATE INDEX "movie_columns_parent" ON "movie_columns" USING btree ("parent_id","sort");--> statement-breakpoint
CREATE INDEX "movie_plays_movie" ON "movie_plays" USING btree ("movie_id","sort");--> statement-breakpoint
CREATE INDEX "movie_plays_source" ON "movie_plays" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "movie_tag_links_tag" ON "movie_tag_links" USING btree ("tag_id","movie_id");--> statement-breakpoint
CREATE UNIQUE INDEX "movie_tags_name" ON "movie_tags" USING btree ("name");--> statement-breakpoint
CREATE INDEX "movies_status_created" ON "movies" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "movies_status_published" ON "movies" USING btree ("status","published_at");--> statement-breakpoint
CREATE INDEX "movies_column" ON "movies" USING btree ("column_id");--> statement-breakpoint
CREATE INDEX "movies_created" ON "movies" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "movies_published" ON "movies" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "movies_platforms" ON "movies" USING gin ("platforms");--> statement-breakpoint
CREATE INDEX "movies_title_grams" ON "movies" USING gin ("title_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "video_sources_code" ON "video_sources" USING btree ("code");