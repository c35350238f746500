-- Statistics (issue #12): the raw event stream partitioned by day, the daily/hourly rollups, and the SQL half of the
-- HyperLogLog sketch (server/modules/statistics/sketch.ts is the other half). Written by hand: drizzle-kit does not
-- declare partitioned tables or functions.
CREATE TABLE "stat_events" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"id" varchar(64) NOT NULL,
	"type" varchar(16) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"domain" varchar(253) NOT NULL,
	"path" varchar(512) NOT NULL,
	"referrer" varchar(253) DEFAULT '' NOT NULL,
	"device" varchar(16) DEFAULT '' NOT NULL,
	"browser" varchar(32) DEFAULT '' NOT NULL,
	"os" varchar(32) DEFAULT '' NOT NULL,
	"country" varchar(32) DEFAULT '' NOT NULL,
	"province" varchar(32) DEFAULT '' NOT NULL,
	"address" varchar(45) DEFAULT '' NOT NULL,
	"address_hash" bigint NOT NULL,
	"visitor" varchar(64) NOT NULL,
	"visitor_hash" bigint NOT NULL,
	"channel" varchar(64) DEFAULT '' NOT NULL,
	"object_type" varchar(16) DEFAULT '' NOT NULL,
	"object_id" integer DEFAULT 0 NOT NULL,
	"keyword" varchar(100) DEFAULT '' NOT NULL,
	"results" integer,
	"amount" numeric(14, 2),
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stat_events_tenant_day_id_pk" PRIMARY KEY("tenant","day","id")
) PARTITION BY RANGE ("day");
--> statement-breakpoint
CREATE TABLE "stat_dirty_days" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "stat_dirty_days_tenant_day_pk" PRIMARY KEY("tenant","day")
);
--> statement-breakpoint
CREATE TABLE "stat_visitors" (
	"tenant" integer NOT NULL,
	"domain" varchar(253) NOT NULL,
	"visitor" bigint NOT NULL,
	"first_day" date NOT NULL,
	CONSTRAINT "stat_visitors_tenant_domain_visitor_pk" PRIMARY KEY("tenant","domain","visitor")
);
--> statement-breakpoint
CREATE TABLE "stat_keyword_daily" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"keyword" varchar(100) NOT NULL,
	"searches" integer DEFAULT 0 NOT NULL,
	"zero_results" integer DEFAULT 0 NOT NULL,
	"results_sum" bigint DEFAULT 0 NOT NULL,
	"searchers" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_keyword_daily_tenant_day_keyword_pk" PRIMARY KEY("tenant","day","keyword")
);
--> statement-breakpoint
CREATE TABLE "stat_object_daily" (
	"tenant" integer NOT NULL,
	"object_type" varchar(16) NOT NULL,
	"day" date NOT NULL,
	"object_id" integer NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"viewers" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_object_daily_tenant_object_type_day_object_id_pk" PRIMARY KEY("tenant","object_type","day","object_id")
);
--> statement-breakpoint
CREATE TABLE "stat_domain_daily" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"domain" varchar(253) NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"new_visitors" integer DEFAULT 0 NOT NULL,
	"visitors" bytea DEFAULT '\x'::bytea NOT NULL,
	"addresses" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_domain_daily_tenant_day_domain_pk" PRIMARY KEY("tenant","day","domain")
);
--> statement-breakpoint
CREATE TABLE "stat_domain_hourly" (
	"tenant" integer NOT NULL,
	"domain" varchar(253) NOT NULL,
	"day" date NOT NULL,
	"hour" smallint NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"new_visitors" integer DEFAULT 0 NOT NULL,
	"visitors" bytea DEFAULT '\x'::bytea NOT NULL,
	"addresses" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_domain_hourly_tenant_domain_day_hour_pk" PRIMARY KEY("tenant","domain","day","hour")
);
--> statement-breakpoint
CREATE TABLE "stat_visit_daily" (
	"tenant" integer NOT NULL,
	"domain" varchar(253) NOT NULL,
	"dimension" varchar(16) NOT NULL,
	"day" date NOT NULL,
	"key" varchar(512) NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"visitors" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_visit_daily_tenant_domain_dimension_day_key_pk" PRIMARY KEY("tenant","domain","dimension","day","key")
);
--> statement-breakpoint
CREATE TABLE "stat_channel_daily" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"channel" varchar(64) NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"ad_impressions" integer DEFAULT 0 NOT NULL,
	"ad_clicks" integer DEFAULT 0 NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"recharges" integer DEFAULT 0 NOT NULL,
	"recharge_amount" numeric(16, 2) DEFAULT '0' NOT NULL,
	"visitors" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_channel_daily_tenant_day_channel_pk" PRIMARY KEY("tenant","day","channel")
);
--> statement-breakpoint
-- The first 64 bits of the MD5 of a text, as a signed bigint (sketch.ts hashes the same way in tests).
CREATE FUNCTION zg_hash64(v text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ('x' || substr(md5(v), 1, 16))::bit(64)::bigint
$$;
--> statement-breakpoint
-- A HyperLogLog register of a 64-bit hash, precision 14: the top 14 bits pick the register (index << 6), the rank
-- is the position of the first 1 in the other 50 bits (51 when they are all 0).
CREATE FUNCTION zg_hll_reg(h bigint) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT (((h >> 50) & 16383)::integer << 6)
    | coalesce(nullif(position('1' in substr(h::bit(64)::text, 15)), 0), 51)
$$;
--> statement-breakpoint
-- One sparse entry: the register index in two bytes, then the rank.
CREATE FUNCTION zg_hll_entry(idx integer, rnk integer) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT decode(lpad(to_hex((idx << 8) | rnk), 6, '0'), 'hex')
$$;
--> statement-breakpoint
-- A sparse sketch longer than the dense form (16,384 one-byte registers) becomes dense.
CREATE FUNCTION zg_hll_pack(s bytea) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  d bytea;
  i integer;
BEGIN
  IF length(s) < 16384 OR length(s) % 3 <> 0 THEN RETURN s; END IF;
  d := decode(repeat('00', 16384), 'hex');
  FOR i IN 0 .. length(s) / 3 - 1 LOOP
    d := set_byte(d, (get_byte(s, 3 * i) << 8) | get_byte(s, 3 * i + 1), get_byte(s, 3 * i + 2));
  END LOOP;
  RETURN d;
END $$;
