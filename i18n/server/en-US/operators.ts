import type zh from '../zh-CN/operators';

/** API messages of the operators module, en-US. */
const operators: Record<keyof typeof zh, string> = {
  'operator.self': 'You cannot do this to your own account',
  'operator.lastAdmin': 'At least one enabled admin must remain',
  'password.wrongOld': 'The current password is wrong',
  'role.builtin': 'The built-in roles (admin, user) cannot be changed or deleted',
  'role.inUse': '{count} operators hold this role: give them another role first',
  'role.unknownPermission': 'No such permission: {permission}',
  'role.unknown': 'No such role: choose one under Roles',
  'password.weak': 'A password needs at least 8 characters with both letters and digits',
};
export default operators;
