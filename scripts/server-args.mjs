// Node's options for the server, as `npm start` runs it (package.json's "start" names the same; a test checks they
// agree) and as the benches start it.
//
// A young generation of up to 64 MB a half rather than 16: the event ingestion makes a batch's objects (its JSON, its
// rows, its COPY lines) by the hundred thousand a second, and with the smaller one the collector ran far more often,
// copying the same live folds and caches each time: sustained ingestion spends less CPU an event and accepts more
// events a second with it (`npm run bench -- events`).
export const SERVER_NODE_ARGS = ['--max-semi-space-size=64'];

/**
 * How `npm run bench` runs a bench: with the server's options, since several benches run the server's code in their
 * own process (the events bench's reports, the domains and novel import benches) and the collector's sizes change what
 * a read costs.
 */
export const benchNodeArgs = (name) => [...SERVER_NODE_ARGS, `bench/${name}.mjs`];
