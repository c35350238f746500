/** 操作员版块（operators 模块）的接口消息。 */
const operators = {
  'operator.self': '不能对自己的账号执行此操作',
  'operator.lastAdmin': '至少需要保留一个启用的管理员',
  'password.wrongOld': '原密码不正确',
  'password.weak': '密码至少 8 位，且须同时包含字母和数字',
};
export default operators;
