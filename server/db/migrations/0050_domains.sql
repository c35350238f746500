-- Domains (issue #15): pools, the store, the history of every change, per-tenant settings of the health checker.
CREATE TABLE "domain_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"domain_id" integer,
	"hostname" varchar(253) NOT NULL,
	"pool_id" integer,
	"channel" varchar(64),
	"action" varchar(8) NOT NULL,
	"from_value" varchar(300) DEFAULT '' NOT NULL,
	"to_value" varchar(300) DEFAULT '' NOT NULL,
	"actor_id" integer,
	"actor" varchar(64) NOT NULL,
	"reason" varchar(256) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_pools" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"note" varchar(256) DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_settings" (
	"tenant" integer PRIMARY KEY NOT NULL,
	"check_enabled" boolean DEFAULT false NOT NULL,
	"check_interval_seconds" integer DEFAULT 300 NOT NULL,
	"check_timeout_ms" integer DEFAULT 5000 NOT NULL,
	"fail_threshold" integer DEFAULT 3 NOT NULL,
	"auto_replace" boolean DEFAULT true NOT NULL,
	"expiry_warn_days" integer DEFAULT 30 NOT NULL,
	"resolve_version" bigint DEFAULT 1 NOT NULL,
	"last_check_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"hostname" varchar(253) NOT NULL,
	"registrable" varchar(253) NOT NULL,
	"role" varchar(8) DEFAULT 'landing' NOT NULL,
	"pool_id" integer,
	"weight" integer DEFAULT 1 NOT NULL,
	"status" varchar(8) DEFAULT 'standby' NOT NULL,
	"registrar" varchar(64) DEFAULT '' NOT NULL,
	"expires_on" date,
	"cert_expires_on" date,
	"channel" varchar(64),
	"retire_reason" varchar(256) DEFAULT '' NOT NULL,
	"retired_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"check_ok" boolean,
	"check_error" varchar(256) DEFAULT '' NOT NULL,
	"fail_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_pool_id_domain_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."domain_pools"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "domain_history_tenant_at" ON "domain_history" USING btree ("tenant","at","id");
--> statement-breakpoint
CREATE INDEX "domain_history_tenant_domain" ON "domain_history" USING btree ("tenant","domain_id");
--> statement-breakpoint
CREATE INDEX "domain_history_tenant_action" ON "domain_history" USING btree ("tenant","action","at");
--> statement-breakpoint
CREATE UNIQUE INDEX "domain_pools_tenant_name" ON "domain_pools" USING btree ("tenant","name");
--> statement-breakpoint
CREATE UNIQUE INDEX "domains_tenant_hostname" ON "domains" USING btree ("tenant","hostname");
--> statement-breakpoint
CREATE INDEX "domains_tenant_registrable" ON "domains" USING btree ("tenant","registrable");
--> statement-breakpoint
CREATE INDEX "domains_tenant_status" ON "domains" USING btree ("tenant","status","id");
--> statement-breakpoint
CREATE INDEX "domains_tenant_pool" ON "domains" USING btree ("tenant","pool_id","status","id");
--> statement-breakpoint
CREATE INDEX "domains_tenant_channel" ON "domains" USING btree ("tenant","channel");
