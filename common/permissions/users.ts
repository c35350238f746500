import { sectionPermissions } from '../permissions';

/** Members: operators read them and run the batches; editing, banning, reset codes and VIP extension are admins'. */
export const usersPermissions = sectionPermissions('users', ['read', 'edit', 'batch'], ['read', 'batch']);
