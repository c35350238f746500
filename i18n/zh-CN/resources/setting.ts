import type en from '../../en-US/resources/setting';

/** 系统设置版块的资源文案。 */
const setting: typeof en = {
  'setting/operators': {
    name: '运营账号 |||| 运营账号',
    fields: {
      id: 'ID',
      account: '账号',
      nickname: '昵称',
      avatar: '头像地址',
      role: '角色',
      disabled: '状态',
      password: '密码',
      createdAt: '创建时间',
      updatedAt: '更新时间',
      lastLoginAt: '最近登录',
    },
    filters: { q: '搜索账号或昵称', role: '角色', state: '状态' },
    state: { enabled: '启用', disabled: '停用' },
    action: {
      enable: '启用',
      disable: '停用',
      resetPassword: '重置密码',
      newPassword: '新密码',
      confirmDisable: '确定停用 %{count} 个账号？他们将被登出。',
      confirmEnable: '确定启用 %{count} 个账号？',
      confirmDelete: '确定删除 %{count} 个账号？此操作不可撤销。',
    },
    notifications: {
      enabled: '已启用',
      disabled: '已停用',
      batchDone: '已处理 %{count} 个账号',
      passwordReset: '密码已重置，该账号的登录已失效',
    },
    page: { create: '新建运营账号', edit: '编辑运营账号 %{account}', editTitle: '编辑运营账号' },
  },
};
export default setting;
