import { type AddressInfo, createServer } from 'node:net';

/**
 * A port nothing listens on now, as the system hands one out, for a server a test starts. A port drawn at random
 * from 20000–40000 once failed a run with EADDRINUSE: 32768 and up are the system's ephemeral ports, which the
 * suite's own connections (PostgreSQL, Chromium) hold while they last; two random draws can also meet.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
