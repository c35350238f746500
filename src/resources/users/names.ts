/** Names of the members section (SPEC.md §2 users/list), without React. */
export const SECTION_MSG = 'resources.users';
export const USER_RESOURCE = 'users/list';
export const USER_API = 'admin/users';
export const USER_MSG = `resources.${USER_RESOURCE}`;
