-- Comments, the guestbook and their filter (issue #14).
CREATE TABLE "comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"target_type" varchar(16) NOT NULL,
	"target_id" integer NOT NULL,
	"user_id" integer REFERENCES "site_users"("id") ON DELETE set null,
	"guest_name" varchar(32) DEFAULT '' NOT NULL,
	"parent_id" integer REFERENCES "comments"("id") ON DELETE cascade,
	"content" text NOT NULL,
	"original_content" text,
	"address" varchar(45) DEFAULT '' NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL,
	"reports" integer DEFAULT 0 NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"reject_reason" varchar(500) DEFAULT '' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "comments_tenant_created" ON "comments" USING btree ("tenant","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_status" ON "comments" USING btree ("tenant","status","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_user" ON "comments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "comments_address" ON "comments" USING btree ("tenant","address","created_at");--> statement-breakpoint
CREATE INDEX "comments_target" ON "comments" USING btree ("target_type","target_id","created_at");--> statement-breakpoint
CREATE INDEX "comments_parent" ON "comments" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "comments_reported" ON "comments" USING btree ("tenant","created_at") WHERE "comments"."reports" > 0;--> statement-breakpoint
CREATE TABLE "guestbook" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"user_id" integer REFERENCES "site_users"("id") ON DELETE set null,
	"guest_name" varchar(32) DEFAULT '' NOT NULL,
	"contact" varchar(128) DEFAULT '' NOT NULL,
	"kind" varchar(16) DEFAULT 'message' NOT NULL,
	"movie_id" integer REFERENCES "movies"("id") ON DELETE set null,
	"content" text NOT NULL,
	"original_content" text,
	"address" varchar(45) DEFAULT '' NOT NULL,
	"reply" text DEFAULT '' NOT NULL,
	"replied_by" integer,
	"replied_at" timestamp with time zone,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"reject_reason" varchar(500) DEFAULT '' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "guestbook_tenant_created" ON "guestbook" USING btree ("tenant","created_at","id");--> statement-breakpoint
CREATE INDEX "guestbook_status" ON "guestbook" USING btree ("tenant","status","created_at","id");--> statement-breakpoint
CREATE INDEX "guestbook_user" ON "guestbook" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "guestbook_address" ON "guestbook" USING btree ("tenant","address","created_at");--> statement-breakpoint
CREATE INDEX "guestbook_movie" ON "guestbook" USING btree ("movie_id");--> statement-breakpoint
CREATE TABLE "comment_filters" (
	"tenant" integer NOT NULL,
	"module" varchar(16) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"review_first" boolean DEFAULT false NOT NULL,
	"login_required" boolean DEFAULT true NOT NULL,
	"user_interval" integer DEFAULT 0 NOT NULL,
	"address_interval" integer DEFAULT 0 NOT NULL,
	"mask_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"block_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"hold_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"blacklist" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_filters_tenant_module_pk" PRIMARY KEY("tenant","module")
);
