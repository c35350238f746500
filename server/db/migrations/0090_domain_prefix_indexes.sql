-- Domains (issue #15): the store's search is the start of the hostname or of its registrable domain (`like 'x%'`).
-- Under a database collation other than C (C.UTF-8 here) a plain btree cannot serve such a prefix, so both are
-- indexed with varchar_pattern_ops; the registrable index replaces the plain one (it serves equality too).
CREATE INDEX "domains_tenant_hostname_prefix" ON "domains" USING btree ("tenant","hostname" varchar_pattern_ops);
--> statement-breakpoint
DROP INDEX IF EXISTS "domains_tenant_registrable";
--> statement-breakpoint
CREATE INDEX "domains_tenant_registrable_prefix" ON "domains" USING btree ("tenant","registrable" varchar_pattern_ops);
