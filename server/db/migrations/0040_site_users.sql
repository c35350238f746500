-- The content site's members (issue #14, /users/list), at a million rows: an index per sort and per allow-listed
-- filter, led by the tenant and ending with the id tie-break; the account and email as case-folded prefixes.
CREATE TABLE "site_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"account" varchar(64) NOT NULL,
	"nickname" varchar(64) DEFAULT '' NOT NULL,
	"phone" varchar(32) DEFAULT '' NOT NULL,
	"email" varchar(128) DEFAULT '' NOT NULL,
	"group" varchar(16) DEFAULT 'normal' NOT NULL,
	"vip_level" smallint DEFAULT 0 NOT NULL,
	"vip_expires_at" timestamp with time zone,
	"points" integer DEFAULT 0 NOT NULL,
	"status" varchar(16) DEFAULT 'active' NOT NULL,
	"signup_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signup_address" varchar(45) DEFAULT '' NOT NULL,
	"last_login_at" timestamp with time zone,
	"last_login_address" varchar(45) DEFAULT '' NOT NULL,
	"channel" varchar(32) DEFAULT '' NOT NULL,
	"inviter" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "site_users_account" ON "site_users" USING btree ("tenant","account");--> statement-breakpoint
CREATE INDEX "site_users_tenant_id" ON "site_users" USING btree ("tenant","id");--> statement-breakpoint
CREATE INDEX "site_users_status" ON "site_users" USING btree ("tenant","status","id");--> statement-breakpoint
CREATE INDEX "site_users_group" ON "site_users" USING btree ("tenant","group","id");--> statement-breakpoint
CREATE INDEX "site_users_channel" ON "site_users" USING btree ("tenant","channel","id");--> statement-breakpoint
CREATE INDEX "site_users_signup" ON "site_users" USING btree ("tenant","signup_at" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "site_users_last_login" ON "site_users" USING btree ("tenant","last_login_at" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "site_users_points" ON "site_users" USING btree ("tenant","points" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "site_users_vip" ON "site_users" USING btree ("tenant","vip_expires_at" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "site_users_account_prefix" ON "site_users" USING btree ("tenant",lower("account") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "site_users_phone" ON "site_users" USING btree ("tenant","phone");--> statement-breakpoint
CREATE INDEX "site_users_email" ON "site_users" USING btree ("tenant",lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "site_users_inviter" ON "site_users" USING btree ("inviter");--> statement-breakpoint
CREATE TABLE "site_user_counts" (
	"tenant" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "site_user_counts_tenant_status_pk" PRIMARY KEY("tenant","status")
);
--> statement-breakpoint
-- Kept like movie_counts (0004): statement triggers with transition tables, one upsert of signed deltas per
-- statement, rows written in key order.
CREATE OR REPLACE FUNCTION zg_site_user_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO site_user_counts AS c (tenant, status, n)
    SELECT tenant, status, count(*)::int FROM new_rows GROUP BY tenant, status ORDER BY tenant, status
    ON CONFLICT (tenant, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO site_user_counts AS c (tenant, status, n)
    SELECT tenant, status, -count(*)::int FROM old_rows GROUP BY tenant, status ORDER BY tenant, status
    ON CONFLICT (tenant, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO site_user_counts AS c (tenant, status, n)
    SELECT tenant, status, sum(n)::int FROM (
      SELECT tenant, status, -1 AS n FROM old_rows
      UNION ALL SELECT tenant, status, 1 FROM new_rows
    ) AS d GROUP BY tenant, status HAVING sum(n) <> 0 ORDER BY tenant, status
    ON CONFLICT (tenant, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER site_users_counts_ins AFTER INSERT ON site_users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_site_user_counts();
--> statement-breakpoint
CREATE TRIGGER site_users_counts_upd AFTER UPDATE ON site_users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_site_user_counts();
--> statement-breakpoint
CREATE TRIGGER site_users_counts_del AFTER DELETE ON site_users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION zg_site_user_counts();
--> statement-breakpoint
CREATE TABLE "site_user_bans" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"user_id" integer NOT NULL REFERENCES "site_users"("id") ON DELETE cascade,
	"changes" jsonb NOT NULL,
	"banned_by" integer,
	"banned_at" timestamp with time zone NOT NULL,
	"undone_by" integer,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "site_user_bans_user" ON "site_user_bans" USING btree ("user_id","id");
