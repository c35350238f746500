-- Ads (issue #13): advertisers, positions, materials, the change sets of the batch landing-link replacement, and the
-- ad schedule boundaries of the site's ads answer. Written by hand (the drizzle-kit snapshots stop at 0006).
CREATE TABLE "ad_advertisers" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"contact" varchar(128) DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"notes" varchar(500) DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ad_advertisers_tenant_name" ON "ad_advertisers" USING btree ("tenant","name");
--> statement-breakpoint
CREATE TABLE "ad_positions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"key" varchar(64) NOT NULL,
	"width" integer DEFAULT 0 NOT NULL,
	"height" integer DEFAULT 0 NOT NULL,
	"type" varchar(8) NOT NULL,
	"device" varchar(8) DEFAULT 'all' NOT NULL,
	"rotation" varchar(8) DEFAULT 'weighted' NOT NULL,
	"fallback_ad_id" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ad_positions_tenant_key" ON "ad_positions" USING btree ("tenant","key");
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"title" varchar(100) NOT NULL,
	"type" varchar(8) NOT NULL,
	"creative" varchar(1024) DEFAULT '' NOT NULL,
	"body" varchar(500) DEFAULT '' NOT NULL,
	"landing_url" varchar(1024) NOT NULL,
	"position_id" integer NOT NULL,
	"advertiser_id" integer,
	"platforms" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"device" varchar(8) DEFAULT 'all' NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"pricing" varchar(8) NOT NULL,
	"price" numeric(12, 2) DEFAULT '0' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_position_id_ad_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."ad_positions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_advertiser_id_ad_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."ad_advertisers"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "ads_tenant_id" ON "ads" USING btree ("tenant","id");
--> statement-breakpoint
CREATE INDEX "ads_tenant_position" ON "ads" USING btree ("tenant","position_id","id");
--> statement-breakpoint
CREATE INDEX "ads_tenant_advertiser" ON "ads" USING btree ("tenant","advertiser_id","id");
--> statement-breakpoint
CREATE INDEX "ads_tenant_end" ON "ads" USING btree ("tenant","end_at");
--> statement-breakpoint
CREATE INDEX "ads_platforms" ON "ads" USING gin ("platforms");
--> statement-breakpoint
CREATE TABLE "ad_change_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"operator_id" integer,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"mode" varchar(8) NOT NULL,
	"find" varchar(200) NOT NULL,
	"replace" varchar(1024) NOT NULL,
	"count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rolled_back_at" timestamp with time zone,
	"rolled_back_by" varchar(64)
);
--> statement-breakpoint
CREATE INDEX "ad_change_sets_tenant" ON "ad_change_sets" USING btree ("tenant","id");
--> statement-breakpoint
CREATE TABLE "ad_change_rows" (
	"change_set_id" integer NOT NULL,
	"ad_id" integer NOT NULL,
	"before" text NOT NULL,
	"after" text NOT NULL,
	"version_after" integer NOT NULL,
	CONSTRAINT "ad_change_rows_change_set_id_ad_id_pk" PRIMARY KEY("change_set_id","ad_id")
);
--> statement-breakpoint
ALTER TABLE "ad_change_rows" ADD CONSTRAINT "ad_change_rows_change_set_id_ad_change_sets_id_fk" FOREIGN KEY ("change_set_id") REFERENCES "public"."ad_change_sets"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "ad_site_state" (
	"tenant" integer PRIMARY KEY NOT NULL,
	"boundaries" timestamp with time zone[] DEFAULT '{}'::timestamptz[] NOT NULL
);
