/** 操作员版块（operators 模块）的接口消息。 */
const operators = {
  'operator.self': '不能对自己的账号执行此操作',
  'operator.lastAdmin': '至少需要保留一个启用的管理员',
  'password.wrongOld': '原密码不正确',
  'role.builtin': '内置角色（admin、user）不能修改或删除',
  'role.inUse': '还有 {count} 个操作员使用此角色：请先给他们换一个角色',
  'role.unknownPermission': '没有这个权限：{permission}',
  'role.unknown': '没有这个角色：请在“角色权限”中选择一个',
  'password.weak': '密码至少 8 位，且须同时包含字母和数字',
};
export default operators;
