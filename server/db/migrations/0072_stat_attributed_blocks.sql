-- The agents' stat at speed (issue #16): the per-channel attributed figures pre-summed (`stat_attributed_blocks`), and
-- their visitor and address sketches pre-merged (`stat_attributed_block_sketches`, apart: reading the sums does not
-- read the sketches' pages), over aligned blocks of 2^level days (level 1..8: 2 to 256 days; `start` a multiple of
-- 2^level days after 1970-01-01), as stat_domain_blocks does for domains (0021): a period is read as about
-- 2·log2(days) pieces per channel instead of one row per day. `stat_attributed_totals` sums each day over every channel but ''
-- (the daily series of the agents' stat). All are kept by the rollup (server/modules/statistics/attributed-blocks.ts)
-- and built here from the daily rows already there (`zg_attributed_rebuild`, also used by the bench's seed).
CREATE TABLE "stat_attributed_blocks" (
	"tenant" integer NOT NULL,
	"channel" varchar(64) NOT NULL,
	"level" smallint NOT NULL,
	"start" date NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"payers" integer DEFAULT 0 NOT NULL,
	"recharges" integer DEFAULT 0 NOT NULL,
	"recharge_amount" numeric(16, 2) DEFAULT '0' NOT NULL,
	"shared_address" integer DEFAULT 0 NOT NULL,
	"shared_device" integer DEFAULT 0 NOT NULL,
	"idle" integer DEFAULT 0 NOT NULL,
	"retained" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stat_attributed_blocks_pk" PRIMARY KEY("tenant","level","start","channel")
);
--> statement-breakpoint
CREATE TABLE "stat_attributed_block_sketches" (
	"tenant" integer NOT NULL,
	"channel" varchar(64) NOT NULL,
	"level" smallint NOT NULL,
	"start" date NOT NULL,
	"visitors" bytea DEFAULT '\x'::bytea NOT NULL,
	"addresses" bytea DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "stat_attributed_block_sketches_pk" PRIMARY KEY("tenant","level","start","channel")
);
--> statement-breakpoint
CREATE TABLE "stat_attributed_totals" (
	"tenant" integer NOT NULL,
	"day" date NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"payers" integer DEFAULT 0 NOT NULL,
	"recharges" integer DEFAULT 0 NOT NULL,
	"recharge_amount" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "stat_attributed_totals_pk" PRIMARY KEY("tenant","day")
);
--> statement-breakpoint
-- The registers (index, rank > 0) of a stored sketch, sparse (3-byte triples) or dense (16,384 ranks).
CREATE FUNCTION zg_hll_unpack(s bytea) RETURNS TABLE (idx integer, rnk integer) LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT * FROM (
    SELECT CASE WHEN length(s) = 16384 THEN i ELSE ((get_byte(s, 3 * i) << 8) | get_byte(s, 3 * i + 1)) & 16383 END,
      CASE WHEN length(s) = 16384 THEN get_byte(s, i) ELSE get_byte(s, 3 * i + 2) END
    FROM generate_series(0, CASE WHEN length(s) = 16384 THEN 16383 ELSE length(s) / 3 - 1 END) i
  ) r (idx, rnk) WHERE rnk > 0
$$;
--> statement-breakpoint
-- Builds stat_attributed_blocks, stat_attributed_block_sketches and stat_attributed_totals afresh from
-- stat_attributed_daily: level 1 from the days, each next level from the two blocks below it (sums added, sketches
-- merged register-wise and packed as the rollup packs them).
CREATE FUNCTION zg_attributed_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lv integer;
BEGIN
  DELETE FROM stat_attributed_totals;
  INSERT INTO stat_attributed_totals (tenant, day, page_views, signups, payers, recharges, recharge_amount)
  SELECT tenant, day, sum(page_views), sum(signups), sum(payers), sum(recharges), sum(recharge_amount)
  FROM stat_attributed_daily WHERE channel <> '' GROUP BY tenant, day;
  DELETE FROM stat_attributed_blocks;
  DELETE FROM stat_attributed_block_sketches;
  FOR lv IN 1 .. 8 LOOP
    INSERT INTO stat_attributed_blocks (tenant, channel, level, start, page_views, signups, payers, recharges,
      recharge_amount, shared_address, shared_device, idle, retained)
    WITH src AS (
      SELECT tenant, channel, day AS at, page_views, signups, payers, recharges, recharge_amount, shared_address,
        shared_device, idle, retained FROM stat_attributed_daily WHERE lv = 1
      UNION ALL
      SELECT tenant, channel, start, page_views, signups, payers, recharges, recharge_amount, shared_address,
        shared_device, idle, retained FROM stat_attributed_blocks WHERE lv > 1 AND level = lv - 1)
    SELECT tenant, channel, lv, DATE '1970-01-01' + ((at - DATE '1970-01-01') >> lv << lv), sum(page_views),
      sum(signups), sum(payers), sum(recharges), sum(recharge_amount), sum(shared_address), sum(shared_device),
      sum(idle), sum(retained)
    FROM src GROUP BY 1, 2, 3, 4;
    INSERT INTO stat_attributed_block_sketches (tenant, channel, level, start, visitors, addresses)
    WITH src AS (
      SELECT tenant, channel, day AS at, visitors, addresses FROM stat_attributed_daily WHERE lv = 1
      UNION ALL
      SELECT tenant, channel, start, visitors, addresses FROM stat_attributed_block_sketches
      WHERE lv > 1 AND level = lv - 1),
    s AS (SELECT *, DATE '1970-01-01' + ((at - DATE '1970-01-01') >> lv << lv) AS b FROM src),
    keys AS (SELECT DISTINCT tenant, channel, b FROM s WHERE length(visitors) > 0 OR length(addresses) > 0),
    rv AS (SELECT s.tenant, s.channel, s.b, u.idx, max(u.rnk) AS r FROM s, zg_hll_unpack(s.visitors) u
      GROUP BY s.tenant, s.channel, s.b, u.idx),
    kv AS (SELECT tenant, channel, b, zg_hll_pack(string_agg(zg_hll_entry(idx, r), ''::bytea ORDER BY idx)) AS v
      FROM rv GROUP BY tenant, channel, b),
    ra AS (SELECT s.tenant, s.channel, s.b, u.idx, max(u.rnk) AS r FROM s, zg_hll_unpack(s.addresses) u
      GROUP BY s.tenant, s.channel, s.b, u.idx),
    ka AS (SELECT tenant, channel, b, zg_hll_pack(string_agg(zg_hll_entry(idx, r), ''::bytea ORDER BY idx)) AS v
      FROM ra GROUP BY tenant, channel, b)
    SELECT keys.tenant, keys.channel, lv, keys.b, coalesce(kv.v, ''::bytea), coalesce(ka.v, ''::bytea)
    FROM keys LEFT JOIN kv USING (tenant, channel, b) LEFT JOIN ka USING (tenant, channel, b);
  END LOOP;
END $$;
--> statement-breakpoint
SELECT zg_attributed_rebuild();
