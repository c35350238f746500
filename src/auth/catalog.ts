/**
 * The sections' permission declarations (common/permissions/<section>.ts), found rather than listed: the same files
 * the server modules guard their routes with. The roles screen's grid and the built-in roles are made of them.
 */
import { catalogOf, type SectionPermissions } from '../../common/permissions';

export const PERMISSION_SECTIONS: readonly SectionPermissions[] = Object.values(
  import.meta.glob<Record<string, SectionPermissions>>('../../common/permissions/*.ts', { eager: true }),
)
  .flatMap((exports) => Object.values(exports))
  .filter((d): d is SectionPermissions => !!d && typeof d === 'object' && 'section' in d && 'actions' in d)
  .sort((a, b) => a.section.localeCompare(b.section));

export const CATALOG = catalogOf(PERMISSION_SECTIONS);

/**
 * What a built-in role holds (an answer without `permissions`: an older server, or a test stub):
 * `admin` every permission, `user` what the sections give it, anything else nothing.
 */
export const builtinPermissions = (role: string): readonly string[] =>
  role === 'admin' ? CATALOG.all : role === 'user' ? CATALOG.user : [];
