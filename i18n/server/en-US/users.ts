import type zh from '../zh-CN/users';

/** Messages of the members module (users). */
const users: Record<keyof typeof zh, string> = {
  'users.alreadyBanned': 'This member is already banned',
  'users.badLogin': 'Wrong account or password',
  'users.loginDisabled': 'This member is disabled or banned and cannot log in',
  'users.notBanned': 'This member has no ban to undo',
  'users.bannedInBatch':
    'These members are banned; undo their ban to restore them: {ids}. Nothing in this batch was changed',
  'users.expiryWithoutLevel': 'A VIP expiry needs a VIP level above 0',
  'users.badResetCode': 'The code is wrong, used or expired, or the account does not exist',
};
export default users;
