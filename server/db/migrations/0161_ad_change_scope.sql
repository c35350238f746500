-- Which ads a landing-link replacement was run over (issue #52): the selected ids, or the list's filter with the names
-- its advertiser and position had then (a name read later may have changed or gone). Older change sets have none.
ALTER TABLE "ad_change_sets" ADD COLUMN "scope" jsonb;
