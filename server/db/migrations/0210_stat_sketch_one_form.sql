-- Every stored sketch takes the one form `zg_hll_pack` writes: sparse triples (index in 2 bytes, then rank) in index
-- order, or all 16,384 ranks when that is not longer. The agents' block sketches written in the gap form (the byte
-- 0x80, then 2 bytes a register) are converted here, in SQL (`zg_hll_unpack` still reads that form); their rebuild
-- writes the sparse form again, and the gap form's writer goes.
UPDATE "stat_attributed_block_sketches" SET
  "visitors" = CASE WHEN length("visitors") % 2 = 1 AND length("visitors") <> 16384
      AND substring("visitors" FROM 1 FOR 1) = '\x80'::bytea
    THEN coalesce((SELECT zg_hll_pack(string_agg(zg_hll_entry(idx, rnk), ''::bytea ORDER BY idx))
      FROM zg_hll_unpack("visitors")), ''::bytea)
    ELSE "visitors" END,
  "addresses" = CASE WHEN length("addresses") % 2 = 1 AND length("addresses") <> 16384
      AND substring("addresses" FROM 1 FOR 1) = '\x80'::bytea
    THEN coalesce((SELECT zg_hll_pack(string_agg(zg_hll_entry(idx, rnk), ''::bytea ORDER BY idx))
      FROM zg_hll_unpack("addresses")), ''::bytea)
    ELSE "addresses" END;
--> statement-breakpoint
DROP FUNCTION zg_attributed_rebuild();
--> statement-breakpoint
ALTER FUNCTION zg_attributed_rebuild_sparse() RENAME TO zg_attributed_rebuild;
--> statement-breakpoint
DROP FUNCTION zg_hll_gaps(bytea);
--> statement-breakpoint
-- The registers (index, rank > 0) of a stored sketch, sparse (3-byte triples) or dense (16,384 ranks).
CREATE OR REPLACE FUNCTION zg_hll_unpack(s bytea) RETURNS TABLE (idx integer, rnk integer) LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT * FROM (
    SELECT CASE WHEN length(s) = 16384 THEN i ELSE ((get_byte(s, 3 * i) << 8) | get_byte(s, 3 * i + 1)) & 16383 END,
      CASE WHEN length(s) = 16384 THEN get_byte(s, i) ELSE get_byte(s, 3 * i + 2) END
    FROM generate_series(0, CASE WHEN length(s) = 16384 THEN 16383 ELSE length(s) / 3 - 1 END) i
  ) r (idx, rnk) WHERE rnk > 0
$$;
