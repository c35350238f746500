-- What the ads reports' kept parts depend on, apart from the rollups (issue #13): a material's position, advertiser,
-- pricing, price and booking (start and end), and a position's fallback material. `version` moves with every edit,
-- so renaming a material, replacing its landing links in a batch, pausing it or editing an advertiser used to drop
-- every kept report part, and the next report recomputed 90 days from the rollups (120–200 ms at 10,000 materials).
-- `report_version` moves only when one of those fields changes (a BEFORE UPDATE row trigger, whatever writes the
-- row); server/modules/ad/reports.ts keeps the period sums under it, and a whole answer (which shows the names)
-- under `version` as before.
ALTER TABLE "ads" ADD COLUMN "report_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_positions" ADD COLUMN "report_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_ad_report_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.tenant, NEW.position_id, NEW.advertiser_id, NEW.pricing, NEW.price, NEW.start_at, NEW.end_at)
     IS DISTINCT FROM (OLD.tenant, OLD.position_id, OLD.advertiser_id, OLD.pricing, OLD.price, OLD.start_at, OLD.end_at)
  THEN
    NEW.report_version := OLD.report_version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER ads_report_version BEFORE UPDATE ON ads FOR EACH ROW EXECUTE FUNCTION zg_ad_report_version();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_ad_position_report_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.tenant, NEW.fallback_ad_id) IS DISTINCT FROM (OLD.tenant, OLD.fallback_ad_id) THEN
    NEW.report_version := OLD.report_version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER ad_positions_report_version BEFORE UPDATE ON ad_positions FOR EACH ROW
  EXECUTE FUNCTION zg_ad_position_report_version();
