import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { benchNodeArgs, SERVER_NODE_ARGS } from '../../scripts/server-args.mjs';

/** `npm start` runs the server with the Node options the benches measure it with (scripts/server-args.mjs). */
test("npm start gives Node the server's options, as the benches do", () => {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'));
  expect(SERVER_NODE_ARGS.length).toBeGreaterThan(0);
  expect(scripts.start).toBe(`node ${SERVER_NODE_ARGS.join(' ')} scripts/start.mjs`);
});

/** The benches that run the server's code in their own process measure it with the same options. */
test('npm run bench runs each bench with the same options', () => {
  expect(benchNodeArgs('events')).toEqual([...SERVER_NODE_ARGS, 'bench/events.mjs']);
  expect(readFileSync('scripts/bench.mjs', 'utf8')).toContain('spawn(process.execPath, benchNodeArgs(name)');
});
