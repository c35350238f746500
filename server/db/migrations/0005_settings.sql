-- Settings section (issue #5): notices, promotion apps, statistics settings, and the state of the public site API.
CREATE TABLE "notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"type" varchar(8) NOT NULL,
	"title" varchar(100) NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"platforms" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notices_end_after_start" CHECK ("notices"."end_at" is null or "notices"."end_at" > "notices"."start_at")
);
--> statement-breakpoint
CREATE TABLE "promotion_apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"icon" varchar(512) DEFAULT '' NOT NULL,
	"url" varchar(1024) NOT NULL,
	"os" varchar(8) NOT NULL,
	"platforms" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistics_settings" (
	"tenant" integer PRIMARY KEY NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "site_state" (
	"tenant" integer PRIMARY KEY NOT NULL,
	"site_key" varchar(64),
	"key_updated_at" timestamp with time zone,
	"site_version" integer DEFAULT 0 NOT NULL,
	"boundaries" timestamp with time zone[] DEFAULT '{}'::timestamptz[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "notices_tenant_start" ON "notices" USING btree ("tenant","start_at");--> statement-breakpoint
CREATE INDEX "notices_platforms" ON "notices" USING gin ("platforms");--> statement-breakpoint
CREATE INDEX "promotion_apps_tenant_sort" ON "promotion_apps" USING btree ("tenant","sort");--> statement-breakpoint
CREATE INDEX "promotion_apps_platforms" ON "promotion_apps" USING gin ("platforms");--> statement-breakpoint
CREATE UNIQUE INDEX "site_state_site_key" ON "site_state" USING btree ("site_key");
