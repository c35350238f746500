-- The MacCMS move (scripts/migrate-maccms.mjs): each row it wrote remembers the MacCMS row it came from, per tenant and
-- kind, with a digest of what it was written from, so a second run updates only what changed in MacCMS and adds only
-- what is new; a batch's rows and their mapping rows commit together, so a run stopped half way resumes exactly.
CREATE TABLE "maccms_ids" (
	"tenant" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"maccms_id" bigint NOT NULL,
	"our_id" integer NOT NULL,
	"digest" varchar(40) NOT NULL DEFAULT '',
	"moved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maccms_ids_pkey" PRIMARY KEY ("tenant", "kind", "maccms_id")
);--> statement-breakpoint
CREATE INDEX "maccms_ids_ours" ON "maccms_ids" USING btree ("kind", "our_id");--> statement-breakpoint
-- A member's MacCMS password hash (bcrypt `$2y$…`, or the md5 of older installs), kept until the member's first login
-- here verifies it and replaces it with our hash (server/modules/users/legacy-password.ts); never shown, never sent.
ALTER TABLE "site_users" ADD COLUMN "legacy_password" varchar(255);
