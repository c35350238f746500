-- Channel agents (issue #16): the agents themselves, the statistics rollup's attribution tables (first touch per
-- visitor and channel, the signups and first payers it credited, the per-channel daily figures) and the settlements
-- that freeze an agent's days. Written by hand: the rollup's tables are maintained by SQL in
-- server/modules/statistics/attribution.ts.
CREATE TABLE "agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"contact" varchar(128) DEFAULT '' NOT NULL,
	"channel" varchar(64) NOT NULL,
	"model" varchar(8) DEFAULT 'share' NOT NULL,
	"rate" numeric(12, 2) DEFAULT '0' NOT NULL,
	"parent_id" integer REFERENCES "agents"("id") ON DELETE restrict,
	"enabled" boolean DEFAULT true NOT NULL,
	"payee" varchar(64) DEFAULT '' NOT NULL,
	"payout_method" varchar(8) DEFAULT 'bank' NOT NULL,
	"payout_account" varchar(128) DEFAULT '' NOT NULL,
	"notes" varchar(500) DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "agents_tenant_channel" ON "agents" USING btree ("tenant","channel");
--> statement-breakpoint
CREATE UNIQUE INDEX "agents_tenant_name" ON "agents" USING btree ("tenant","name");
--> statement-breakpoint
CREATE INDEX "agents_tenant_parent" ON "agents" USING btree ("tenant","parent_id");
--> statement-breakpoint
-- A visitor's first event of a day through a channel (its own code, or a domain bound to it).
CREATE TABLE "stat_touches" (
	"tenant" integer NOT NULL,
	"visitor_hash" bigint NOT NULL,
	"day" date NOT NULL,
	"channel" varchar(64) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "stat_touches_pk" PRIMARY KEY("tenant","visitor_hash","day","channel")
);
--> statement-breakpoint
CREATE INDEX "stat_touches_day" ON "stat_touches" USING btree ("tenant","day");
--> statement-breakpoint
-- Every signup and the channel it was credited to ('' = none); `active` has bit k set when the visitor came back k
-- days (1–7) after the day of the signup.
CREATE TABLE "stat_signups" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"id" varchar(64) NOT NULL,
	"channel" varchar(64) NOT NULL,
	"visitor_hash" bigint NOT NULL,
	"address_hash" bigint NOT NULL,
	"active" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "stat_signups_pk" PRIMARY KEY("tenant","day","id")
);
--> statement-breakpoint
CREATE INDEX "stat_signups_visitor" ON "stat_signups" USING btree ("tenant","visitor_hash");
--> statement-breakpoint
-- Each paying visitor once, on the day of the first recharge, with the channel that recharge was credited to.
CREATE TABLE "stat_payers" (
	"tenant" integer NOT NULL,
	"visitor_hash" bigint NOT NULL,
	"day" date NOT NULL,
	"channel" varchar(64) NOT NULL,
	CONSTRAINT "stat_payers_pk" PRIMARY KEY("tenant","visitor_hash")
);
--> statement-breakpoint
CREATE INDEX "stat_payers_day" ON "stat_payers" USING btree ("tenant","day");
--> statement-breakpoint
-- Per channel per day: the traffic that came through it and the conversions credited to it.
CREATE TABLE "stat_attributed_daily" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"channel" varchar(64) NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"payers" integer DEFAULT 0 NOT NULL,
	"recharges" integer DEFAULT 0 NOT NULL,
	"recharge_amount" numeric(16, 2) DEFAULT '0' NOT NULL,
	"shared_address" integer DEFAULT 0 NOT NULL,
	"shared_device" integer DEFAULT 0 NOT NULL,
	"idle" integer DEFAULT 0 NOT NULL,
	"retained" integer DEFAULT 0 NOT NULL,
	"visitors" bytea DEFAULT '\x'::bytea NOT NULL,
	"addresses" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_attributed_daily_pk" PRIMARY KEY("tenant","day","channel")
);
--> statement-breakpoint
CREATE INDEX "stat_attributed_daily_channel" ON "stat_attributed_daily" USING btree ("tenant","channel","day");
--> statement-breakpoint
CREATE TABLE "agent_settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"agent_id" integer NOT NULL REFERENCES "agents"("id") ON DELETE restrict,
	"from_day" date NOT NULL,
	"to_day" date NOT NULL,
	"model" varchar(8) NOT NULL,
	"rate" numeric(12, 2) NOT NULL,
	"signups" integer NOT NULL,
	"payers" integer NOT NULL,
	"recharges" integer NOT NULL,
	"recharge_amount" numeric(16, 2) NOT NULL,
	"commission" numeric(16, 2) NOT NULL,
	"note" varchar(256) DEFAULT '' NOT NULL,
	"settled_by" integer,
	"settled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "agent_settlements_agent" ON "agent_settlements" USING btree ("tenant","agent_id","from_day");
--> statement-breakpoint
-- The figures of each settled day as they stood when settled: reports show these, and what arrived later apart.
CREATE TABLE "agent_settled_days" (
	"tenant" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"day" date NOT NULL,
	"settlement_id" integer NOT NULL REFERENCES "agent_settlements"("id") ON DELETE cascade,
	"signups" integer NOT NULL,
	"payers" integer NOT NULL,
	"recharges" integer NOT NULL,
	"recharge_amount" numeric(16, 2) NOT NULL,
	"commission" numeric(16, 4) NOT NULL,
	CONSTRAINT "agent_settled_days_pk" PRIMARY KEY("tenant","agent_id","day")
);
