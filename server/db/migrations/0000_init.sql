CREATE TABLE "login_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account" varchar(64) NOT NULL,
	"address" varchar(64) NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" serial PRIMARY KEY NOT NULL,
	"account" varchar(32) NOT NULL,
	"password_hash" text NOT NULL,
	"nickname" varchar(64) DEFAULT '' NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"role" varchar(8) DEFAULT 'user' NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"operator_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" varchar(16),
	"address" varchar(64) DEFAULT '' NOT NULL,
	"user_agent" varchar(256) DEFAULT '' NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "system_settings" (
	"tenant" integer PRIMARY KEY NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_failures_account" ON "login_failures" USING btree ("account","at");--> statement-breakpoint
CREATE INDEX "login_failures_address" ON "login_failures" USING btree ("address","at");--> statement-breakpoint
CREATE UNIQUE INDEX "operators_account_live" ON "operators" USING btree ("account") WHERE "operators"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "sessions_operator" ON "sessions" USING btree ("operator_id");