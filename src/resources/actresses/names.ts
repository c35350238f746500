/**
 * Names of the actress section, without React: the section declaration (index.ts, in the initial bundle) reads
 * them too.
 */

/** Messages shared by the section's screens (its menu labels). */
export const SECTION_MSG = 'resources.actress';

/** The react-admin resource of the section: the list screen's path (its API is /app/admin/actresses). */
export const ACTRESS_RESOURCE = 'actress/list';
/** Its API path under /app (her movies are `${ACTRESS_API}/{id}/movies`). */
export const ACTRESS_API = 'admin/actresses';
export const ACTRESS_MSG = `resources.${ACTRESS_RESOURCE}`;
/** Her movies, on her profile page. */
export const ACTRESS_MOVIES_MSG = `${ACTRESS_MSG}.movies`;

/** Her profile's edit page. */
export const actressEditPath = (id: number | string) => `/actress/edit/${id}`;
