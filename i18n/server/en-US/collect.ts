import type zh from '../zh-CN/collect';

/** Messages of the collection section (the collect module). */
const collect: Record<keyof typeof zh, string> = {
  'collect.url':
    "Enter the resource site's http(s) API address (e.g. https://example.com/api.php/provide/vod/), without credentials",
  'collect.skippedBound': 'A type marked skipped cannot also be bound to a column',
  'collect.actorTypes':
    'A performer site’s types are not bound: actresses have no columns, so every one is collected',
  'collect.pageOrder': 'The last page cannot be before the first',
  'collect.pageSpan': 'At most {max} pages per run: collect them in several runs',
  'collect.disabled': 'This resource site is disabled',
  'collect.busy': 'This resource site is being collected (run {id}): wait for it to end or cancel it',
  'collect.notRunning': 'This run has ended and cannot be cancelled',
  'collect.fail.refused': 'Could not reach the resource site: {detail}',
  'collect.fail.http': 'The resource site answered HTTP {detail}',
  'collect.fail.notJson': 'The resource site did not answer JSON (it began: {detail})',
  'collect.fail.notXml': 'The resource site did not answer XML ({detail})',
  'collect.fail.shape': "The resource site's answer is not in the expected format ({detail})",
  'collect.fail.remoteError': 'The resource site refused the request: {detail}',
  'collect.fail.tooManyPages':
    'The resource site claims {detail} pages, beyond what one run reads: collect a page range or fewer hours',
  'collect.fail.noOutbound': 'Collection needs the server edition (demo mode cannot reach other sites)',
  'collect.fail.interrupted': 'Interrupted: the server stopped while collecting (run it again)',
  'collect.fail.internal': 'Collection failed: {detail}',
  'collect.refused.scheme': 'only http and https addresses are allowed',
  'collect.refused.address': 'the address is private, loopback or reserved and not on the allow-list',
  'collect.refused.dns': 'its name did not resolve',
  'collect.refused.size': 'the answer is larger than allowed',
  'collect.refused.timeout': 'the resource site took too long to answer',
  'collect.refused.redirects': 'too many redirects, or a redirect to an address not allowed',
  'collect.refused.network': 'a network error: the connection failed',
};
export default collect;
