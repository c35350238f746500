/** Messages of the setting section's resources. */
const setting = {
  'setting/operators': {
    name: 'Operator |||| Operators',
    fields: {
      id: 'ID',
      account: 'Account',
      nickname: 'Nickname',
      avatar: 'Avatar URL',
      role: 'Role',
      disabled: 'State',
      password: 'Password',
      createdAt: 'Created',
      updatedAt: 'Updated',
      lastLoginAt: 'Last login',
    },
    filters: { q: 'Search account or nickname', role: 'Role', state: 'State' },
    state: { enabled: 'Enabled', disabled: 'Disabled' },
    action: {
      enable: 'Enable',
      disable: 'Disable',
      resetPassword: 'Reset password',
      newPassword: 'New password',
      confirmDisable: 'Disable %{count} operator(s)? They will be logged out.',
      confirmEnable: 'Enable %{count} operator(s)?',
      confirmDelete: 'Delete %{count} operator(s)? This cannot be undone.',
    },
    notifications: {
      enabled: 'Enabled',
      disabled: 'Disabled',
      batchDone: '%{count} operator(s) changed',
      passwordReset: 'Password reset; their sessions have ended',
    },
    page: { create: 'New operator', edit: 'Edit operator %{account}', editTitle: 'Edit operator' },
  },
};
export default setting;
