-- The members search (q) counts its matches (at most 10,001) as the union of three prefix lookups, one per index
-- (users/list.ts searchCount). Each index ends with the id, so each lookup is an index-only scan; before, one OR of
-- the three was a bitmap scan that read every match's row (10,000 table pages for a common phone prefix at a
-- million members).
DROP INDEX IF EXISTS "site_users_account_prefix";--> statement-breakpoint
CREATE INDEX "site_users_account_prefix" ON "site_users" USING btree ("tenant",lower("account") text_pattern_ops,"id");--> statement-breakpoint
DROP INDEX IF EXISTS "site_users_phone";--> statement-breakpoint
CREATE INDEX "site_users_phone" ON "site_users" USING btree ("tenant","phone" text_pattern_ops,"id");--> statement-breakpoint
DROP INDEX IF EXISTS "site_users_email";--> statement-breakpoint
CREATE INDEX "site_users_email" ON "site_users" USING btree ("tenant",lower("email") text_pattern_ops,"id");
