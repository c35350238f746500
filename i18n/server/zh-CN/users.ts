/** 会员（users 模块）的接口消息。 */
const users = {
  'users.alreadyBanned': '该会员已被封禁',
  'users.badLogin': '账号或密码错误',
  'users.loginDisabled': '该会员已被停用或封禁，不能登录',
  'users.notBanned': '该会员当前没有可撤销的封禁',
  'users.bannedInBatch': '以下会员已被封禁，请用“撤销封禁”恢复：{ids}。本批未做任何修改',
  'users.expiryWithoutLevel': '会员等级为 0 时不能设置到期时间',
  'users.badResetCode': '重置码错误、已使用或已过期，或账号不存在',
};
export default users;
