// Waits for the first server build of `npm run dev`, then runs it (node --watch restarts it on rebuild).
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

while (!existsSync('dist/server/main.js')) await sleep(200);
await import('../dist/server/main.js');
