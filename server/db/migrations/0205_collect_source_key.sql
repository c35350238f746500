-- A resource site's key (MacCMS's `?key=`) is kept apart from its base URL, so that what every operator reads of a
-- source (its URL) and what the audit log keeps of it never hold the key: the API answers `api_key` masked, and the
-- audit log redacts it by its name. A key a source's URL carries already moves here.
ALTER TABLE "collect_sources" ADD COLUMN "api_key" varchar(128) DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "collect_sources"
SET "api_key" = left(substring("url" FROM '[?&]key=([^&#]*)'), 128),
  "url" = regexp_replace(regexp_replace("url", '([?&])key=[^&#]*&?', '\1'), '[?&]+(#|$)', '\1')
WHERE "url" ~ '[?&]key=';
