import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import SettingsIcon from '@mui/icons-material/Settings';
import { lazyScreen } from '../../routes/lazy';
import type { SectionDecl } from '../../routes/types';

/** Settings (SPEC.md §2 /setting, redirecting to notices once they exist). Operators are admin-only (DESIGN.md). */
const setting: SectionDecl = {
  path: 'setting',
  locale: 'shell.menu.setting',
  icon: SettingsIcon,
  order: 90,
  redirect: 'notices',
  screens: [
    {
      path: 'operators',
      locale: 'shell.menu.operators',
      icon: ManageAccountsIcon,
      roles: ['admin'],
      resource: {
        apiPath: 'admin/operators',
        list: lazyScreen(() => import('./operators/OperatorList'), 'OperatorList'),
        recordRepresentation: 'account',
        screens: [
          {
            path: 'create',
            locale: 'resources.setting/operators.page.create',
            component: lazyScreen(() => import('./operators/OperatorCreate'), 'OperatorCreate'),
          },
          {
            path: 'edit/:id',
            locale: 'resources.setting/operators.page.editTitle',
            component: lazyScreen(() => import('./operators/OperatorEdit'), 'OperatorEdit'),
          },
        ],
      },
    },
  ],
};
export default setting;
