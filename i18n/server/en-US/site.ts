import type zh from '../zh-CN/site';

/** API messages of the site module, en-US. */
const site: Record<keyof typeof zh, string> = {
  'site.badKey': 'The site key is missing or wrong',
  'site.unknownPlatform': 'No such platform: {platform}',
  'site.badTimestamp':
    'The signature timestamp (Site-Timestamp) is missing or more than {window} s away from the server clock',
  'site.badSignature': 'The signature (Site-Signature) is missing, malformed or does not match the request',
  'site.noSecret': 'No site server secret yet: an admin makes one in Base settings',
  'site.replayed': 'This signature was used before: each signed request is accepted once',
  'site.signatureRequired':
    "This route takes only requests signed by the site's server (Site-Timestamp and Site-Signature), not the browser key",
  'site.serverOnlyEvent':
    'Events of type "{type}" must be signed by the site\'s server; the browser key may send only page views, plays, searches, ad impressions and clicks, tag clicks',
  'site.serverOnlyField':
    "Only a request signed by the site's server may set this field (a browser's address is its connection's, a member's identity needs the signature)",
};
export default site;
