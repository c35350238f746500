import type zh from '../zh-CN/domain';

/** API messages of the domain module, en-US. */
const domain: Record<keyof typeof zh, string> = {
  'domain.host.empty': 'The hostname is empty',
  'domain.host.wildcard': 'Wildcard names (*) are not accepted',
  'domain.host.ip': 'An IP address is not accepted: give a domain name',
  'domain.host.tooLong': 'A hostname has at most 253 characters',
  'domain.host.label': 'Each label holds letters, digits and inner hyphens only, at most 63 characters',
  'domain.host.invalid': 'Not a valid hostname',
  'domain.host.single': 'A hostname needs at least two labels (like example.com)',
  'domain.host.suffix': 'This is a public suffix, not a registrable domain',
  'domain.host.internal':
    'This names a host inside the network (localhost, *.internal, a private IP…) and cannot be a promotion domain; an admin can allow it under “Internal hosts allowed”',
  'domain.channel': 'A channel code holds letters, digits, underscores and hyphens only',
  'domain.import.tooMany': 'At most {max} lines per import',
  'domain.import.problems':
    '{count} lines have problems; nothing was imported. Fix them or skip the bad lines',
  'domain.import.duplicate': 'Repeats line {line}',
  'domain.import.exists': 'Already in the store',
  'domain.swap.same': 'The replacement must differ from the domain it replaces',
  'domain.swap.notBound': 'This domain is not bound to channel {channel}',
  'domain.swap.bound': 'This domain is bound to channel {channel}',
  'domain.swap.notUsable': 'Only a standby or active domain can take over',
  'domain.swap.nothing': 'No binding would change',
  'domain.pool.notEmpty': 'This pool still holds {count} domains; move them first',
  'domain.resolve.none': 'This pool has no live domain',
};
export default domain;
