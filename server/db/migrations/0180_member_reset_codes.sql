-- A member's page (issue #52): an admin resets a member's password by handing them a one-time code, never a password
-- a member of staff could read. Only the code's SHA-256 is kept (the code has 60 random bits, so no salt or slow hash
-- is needed, as with session tokens); it expires, is spent by its one use or by too many wrong tries, and a newer
-- code replaces an unused older one. The password the member chooses with it is kept as our own hash in
-- `site_users.password_hash` (0175, server/core/crypto.ts), which also ends a MacCMS legacy password.
CREATE TABLE "site_user_reset_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant" integer NOT NULL,
	"user_id" integer NOT NULL REFERENCES "site_users"("id") ON DELETE CASCADE,
	"code_hash" varchar(64) NOT NULL,
	"issued_by" integer,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failures" smallint NOT NULL DEFAULT 0,
	"used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "site_user_reset_codes_user" ON "site_user_reset_codes" USING btree ("user_id","id");
