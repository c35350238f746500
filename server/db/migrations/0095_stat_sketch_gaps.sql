-- The agents' stat at speed (issue #16): its read moves every channel's block sketches of the period (some 7 MB for
-- 1,000 agents over 90 days), so the pre-merged block sketches (`stat_attributed_block_sketches`) are stored in the
-- gap form (server/modules/statistics/sketch.ts `encodeGaps`): the byte 0x80, then 2 bytes per register in index
-- order, `gap << 6 | rank` big-endian (gap 1-1023 from the previous register, the first from -1; longer distances
-- spent 1023 at a time in units of rank 0), a third fewer bytes than the sparse triples; dense (16,384 bytes) when
-- not shorter. The daily rows keep the sparse form the rollup writes. Every reader takes all three forms.
--
-- The registers (index, rank > 0) of a stored sketch: sparse (3-byte triples), dense (16,384 ranks) or gaps.
CREATE OR REPLACE FUNCTION zg_hll_unpack(s bytea) RETURNS TABLE (idx integer, rnk integer) LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT * FROM (
    SELECT CASE WHEN length(s) = 16384 THEN i ELSE ((get_byte(s, 3 * i) << 8) | get_byte(s, 3 * i + 1)) & 16383 END,
      CASE WHEN length(s) = 16384 THEN get_byte(s, i) ELSE get_byte(s, 3 * i + 2) END
    FROM generate_series(0, CASE WHEN length(s) = 16384 THEN 16383
      WHEN length(s) % 2 = 1 AND substring(s from 1 for 1) = '\x80'::bytea THEN -1 ELSE length(s) / 3 - 1 END) i
    UNION ALL
    SELECT ((sum((get_byte(s, 2 * i + 1) << 2) | (get_byte(s, 2 * i + 2) >> 6)) OVER (ORDER BY i) - 1)::integer & 16383),
      get_byte(s, 2 * i + 2) & 63
    FROM generate_series(0, CASE WHEN length(s) <> 16384 AND length(s) % 2 = 1 AND substring(s from 1 for 1) = '\x80'::bytea
      THEN (length(s) - 1) / 2 - 1 ELSE -1 END) i
  ) r (idx, rnk) WHERE rnk > 0
$$;
--> statement-breakpoint
-- The gap form of the registers in `s` (any stored form, or sparse triples concatenated in index order, an index
-- possibly repeated: its largest rank counts): '' for none, dense when the gap form would not be shorter.
CREATE FUNCTION zg_hll_gaps(s bytea) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  WITH r AS (SELECT idx, max(rnk) AS rnk FROM zg_hll_unpack(s) GROUP BY idx),
  g AS (SELECT idx, rnk, idx - coalesce(lag(idx) OVER (ORDER BY idx), -1) AS gap FROM r),
  u AS (SELECT count(*) + coalesce(sum((gap - 1) / 1023), 0) AS n FROM g)
  SELECT CASE WHEN (SELECT n FROM u) = 0 THEN ''::bytea
    WHEN 1 + 2 * (SELECT n FROM u) >= 16384
      THEN (SELECT zg_hll_pack(string_agg(zg_hll_entry(idx, rnk), ''::bytea ORDER BY idx)) FROM g)
    ELSE '\x80'::bytea || (SELECT string_agg(decode(repeat('ffc0', (gap - 1) / 1023), 'hex')
      || substring(int4send(((((gap - 1) % 1023) + 1) << 6) | rnk) from 3), ''::bytea ORDER BY idx) FROM g) END
$$;
--> statement-breakpoint
-- The rebuild of 0072 (which writes sparse block sketches) kept under another name, and the rebuild now that one
-- followed by every block sketch in the gap form.
ALTER FUNCTION zg_attributed_rebuild() RENAME TO zg_attributed_rebuild_sparse;
--> statement-breakpoint
CREATE FUNCTION zg_attributed_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM zg_attributed_rebuild_sparse();
  UPDATE stat_attributed_block_sketches SET visitors = zg_hll_gaps(visitors), addresses = zg_hll_gaps(addresses);
END $$;
--> statement-breakpoint
-- The blocks already there.
UPDATE stat_attributed_block_sketches SET visitors = zg_hll_gaps(visitors), addresses = zg_hll_gaps(addresses);
