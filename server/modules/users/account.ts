import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import { foldForMatch } from '../../../common/fold';
import { siteUsers } from './schema';

/**
 * The member an account names, as the site's login and password reset both find them: the account as typed, else the
 * one whose look-alike fold it shares (the key signups write, unique per tenant; a member moved without it — a
 * MacCMS look-alike — is found only as typed). `where` and `first` go together: the exact account wins.
 */
export function memberNamed(tenant: number, account: string): { where: SQL; first: SQL } {
  const exact = eq(siteUsers.account, account);
  return {
    where: and(eq(siteUsers.tenant, tenant), or(exact, eq(siteUsers.accountKey, foldForMatch(account))))!,
    first: sql`${exact} desc`,
  };
}
