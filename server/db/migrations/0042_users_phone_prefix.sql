-- The members search (q) is a prefix of the account, the phone or the email; under a non-C collation (C.UTF-8
-- included) LIKE 'prefix%' uses only a text_pattern_ops index, so the phone gets one like the other two.
DROP INDEX IF EXISTS "site_users_phone";--> statement-breakpoint
CREATE INDEX "site_users_phone" ON "site_users" USING btree ("tenant","phone" text_pattern_ops);
