-- The audit log (issue #52): who changed what in the back-office, written by the change's own transaction (a change
-- that rolls back leaves no row). Rows are append-only: UPDATE and TRUNCATE are refused to every role, and DELETE
-- only inside zg_audit_purge, which removes rows older than the cutoff it is given (the retention purge), so a
-- stray statement cannot rewrite or thin out the history.
CREATE TABLE "audit_log" (
  "id" bigserial PRIMARY KEY,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "operator_id" integer,
  "operator_account" varchar(64) DEFAULT '' NOT NULL,
  "address" varchar(64) DEFAULT '' NOT NULL,
  "request_id" varchar(64) DEFAULT '' NOT NULL,
  "section" varchar(64) NOT NULL,
  "resource" varchar(128) DEFAULT '' NOT NULL,
  "action" varchar(64) NOT NULL,
  "record_id" varchar(64),
  "route" varchar(256) DEFAULT '' NOT NULL,
  "changes" jsonb DEFAULT '{}'::jsonb NOT NULL
);--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" ("at" DESC, "id" DESC);--> statement-breakpoint
CREATE INDEX "audit_log_operator" ON "audit_log" ("operator_id", "at" DESC);--> statement-breakpoint
CREATE INDEX "audit_log_section" ON "audit_log" ("section", "at" DESC);--> statement-breakpoint
CREATE INDEX "audit_log_record" ON "audit_log" ("section", "record_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION zg_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cutoff text := current_setting('zg.audit_purge_before', true);
BEGIN
  IF TG_OP = 'DELETE' AND cutoff IS NOT NULL AND cutoff <> '' AND OLD."at" < cutoff::timestamptz THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = '42501';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION zg_audit_append_only();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION zg_audit_append_only();--> statement-breakpoint
-- The only way rows leave: those older than `cutoff`, in the caller's transaction; answers how many went.
CREATE OR REPLACE FUNCTION zg_audit_purge(cutoff timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('zg.audit_purge_before', cutoff::text, true);
  DELETE FROM "audit_log" WHERE "at" < cutoff;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('zg.audit_purge_before', '', true);
  RETURN n;
END;
$$;--> statement-breakpoint
-- How long rows are kept (an admin edits it) and when a purge last ran: the claim that lets one instance of several
-- purge per interval.
CREATE TABLE "audit_settings" (
  "tenant" integer PRIMARY KEY,
  "retention_days" integer DEFAULT 180 NOT NULL,
  "last_purge_at" timestamp with time zone,
  "version" integer DEFAULT 1 NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
