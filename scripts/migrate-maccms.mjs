// `npm run migrate:maccms -- mysql://user:pass@host:3306/maccms [--prefix mac_] [--tenant N] [--only vod,user] [--config
// maccms.php] [--report path] [--dry-run]`: builds the server when stale, then moves a MacCMS v10 site
// (server/node/maccms-cli.ts).
import { execFileSync } from 'node:child_process';
import { isStale } from './build-state.mjs';

if (isStale()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
await import('../dist/server/maccms.js');
