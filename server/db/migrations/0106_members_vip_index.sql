-- Members (issues #14, #18): the VIP filters' totals. An index over the expiries of the members with a VIP level,
-- ending with the id, counts an expired or an active VIP (for life: no expiry; or until later) from the index alone;
-- the plain expiry index holds every member (most have none) and its count read the table.
CREATE INDEX "site_users_vip_paid" ON "site_users" USING btree ("tenant","vip_expires_at","id") WHERE "vip_level" > 0;
