/** Names of the members section (SPEC.md §2 users/list), without React. */
export const SECTION_MSG = 'resources.users';
export const USER_RESOURCE = 'users/list';
export const USER_API = 'admin/users';
export const USER_MSG = `resources.${USER_RESOURCE}`;

/** A member's own page (hidden, highlighting the list). */
export const userDetailPath = (id: number | string) => `/users/detail/${id}`;
/** A member's bans (`GET`) and a new password reset code (`POST`, admins). */
export const bansApi = (id: number | string) => `${USER_API}/${id}/bans`;
export const resetCodeApi = (id: number | string) => `${USER_API}/${id}/reset-code`;
