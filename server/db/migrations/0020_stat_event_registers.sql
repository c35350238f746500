-- Statistics at speed (issue #12): each raw event keeps the HyperLogLog registers of its visitor and its address
-- (`zg_hll_reg` of the hashes, computed once on insert) so the rollup, which builds some twenty sketches per event,
-- reads them instead of recomputing them each time. Null on events stored before this migration: the rollup falls
-- back to `zg_hll_reg` of the hash for those.
ALTER TABLE "stat_events" ADD COLUMN "visitor_reg" integer;
--> statement-breakpoint
ALTER TABLE "stat_events" ADD COLUMN "address_reg" integer;
--> statement-breakpoint
-- One sparse entry (index in two bytes, rank in one) from the 4-byte big-endian integer, without text round trips.
CREATE OR REPLACE FUNCTION zg_hll_entry(idx integer, rnk integer) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT substring(int4send(((idx & 65535) << 8) | (rnk & 255)) from 2)
$$;
