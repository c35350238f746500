-- Domains (issues #15, #18): the store list's filters by role, registrar, last check, and expiry of the registration
-- or the certificate scanned the tenant's store (100,000 rows: 17–37 ms p95 over the API at 100,000 domains). Each
-- gets an index led by the tenant; the equality filters carry the id, the list's default order. An import of 10,000
-- hostnames pays them (the target is 2 s; it took 0.5 s).
CREATE INDEX "domains_tenant_role" ON "domains" USING btree ("tenant","role","id");
--> statement-breakpoint
CREATE INDEX "domains_tenant_registrar" ON "domains" USING btree ("tenant","registrar","id");
--> statement-breakpoint
CREATE INDEX "domains_tenant_check" ON "domains" USING btree ("tenant","check_ok","id");
--> statement-breakpoint
CREATE INDEX "domains_tenant_expires" ON "domains" USING btree ("tenant","expires_on");
--> statement-breakpoint
CREATE INDEX "domains_tenant_cert_expires" ON "domains" USING btree ("tenant","cert_expires_on");
