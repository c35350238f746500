-- The site's server secret (DESIGN.md decision 11): what moves money, registers members or speaks for a member is
-- signed by the site's server with this secret. It is kept encrypted with the server's key (SITE_SECRET_KEY), because
-- verifying an HMAC needs the secret itself, not a hash of it.
ALTER TABLE "site_state" ADD COLUMN "secret_cipher" text;--> statement-breakpoint
ALTER TABLE "site_state" ADD COLUMN "secret_updated_at" timestamp with time zone;--> statement-breakpoint

-- Signatures seen inside the replay window: one signature is accepted once, whichever instance sees it. Rows older
-- than the window are deleted as signed requests come in (seen_at's index).
CREATE TABLE "site_signatures" (
	"tenant" integer NOT NULL,
	"signature" varchar(64) NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "site_signatures_pkey" PRIMARY KEY ("tenant", "signature")
);--> statement-breakpoint
CREATE INDEX "site_signatures_seen_at" ON "site_signatures" ("seen_at");
