import { runCli } from './maccms/cli';

/** `npm run migrate:maccms -- mysql://…`: the MacCMS move (server/node/maccms/), built to dist/server/maccms.js. */
runCli(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`maccms: ${(err as Error).message}\n`);
  process.exit(1);
});
