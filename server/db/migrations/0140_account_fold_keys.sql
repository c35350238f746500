-- Issue #48: members and operator accounts are unique under look-alike folding (common/fold.ts foldForMatch), so
-- `Alice01`, `alice01`, `alice\u200b01` and `ＡＤＭＩＮ` cannot be told apart by their owners and cannot all exist. The
-- API writes the key with the full fold (NFKC, case, invisible characters, marks, look-alike letters); rows already
-- here get what SQL can do of it (NFKC, lower case, the invisible characters removed). Look-alike duplicates already
-- stored keep their accounts: every one but the oldest gets `#<id>` after its key, so the unique index can be built
-- and they are listed by `select id, account from … where account_key like '%#%'`. Rows written by other paths
-- without a key (null) are outside the index.
alter table site_users add column account_key text;
--> statement-breakpoint
update site_users set account_key = lower(normalize(regexp_replace(account,
  '[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]',
  '', 'g'), NFKC));
--> statement-breakpoint
update site_users u set account_key = u.account_key || '#' || u.id
from (select id, row_number() over (partition by tenant, account_key order by id) as n from site_users) d
where d.id = u.id and d.n > 1;
--> statement-breakpoint
create unique index site_users_account_key on site_users (tenant, account_key);
--> statement-breakpoint
alter table operators add column account_key text;
--> statement-breakpoint
update operators set account_key = lower(normalize(account, NFKC));
--> statement-breakpoint
update operators o set account_key = o.account_key || '#' || o.id
from (
  select id, row_number() over (partition by account_key order by id) as n from operators where deleted_at is null
) d
where d.id = o.id and d.n > 1;
--> statement-breakpoint
create unique index operators_account_key_live on operators (account_key) where deleted_at is null;
