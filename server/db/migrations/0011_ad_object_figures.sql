-- Figures the ads reports read from the object rollup (issue #13): unique clickers of an ad or a position (a
-- HyperLogLog sketch of the visitors of its ad_click events), and the signups and recharges the site attributes to
-- it (events whose object is the ad). Other object types keep zeros and an empty sketch.
ALTER TABLE "stat_object_daily" ADD COLUMN "clickers" bytea DEFAULT '\x'::bytea NOT NULL;
--> statement-breakpoint
ALTER TABLE "stat_object_daily" ADD COLUMN "signups" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "stat_object_daily" ADD COLUMN "recharges" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "stat_object_daily" ADD COLUMN "recharge_amount" numeric(16, 2) DEFAULT '0' NOT NULL;
