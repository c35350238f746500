import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import SettingsIcon from '@mui/icons-material/Settings';
import type { SectionDecl } from '../../routes/types';
import { OperatorCreate } from './operators/OperatorCreate';
import { OperatorEdit } from './operators/OperatorEdit';
import { OperatorList } from './operators/OperatorList';

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
        list: OperatorList,
        recordRepresentation: 'account',
        screens: [
          { path: 'create', locale: 'resources.setting/operators.page.create', component: OperatorCreate },
          { path: 'edit/:id', locale: 'shell.menu.operators', component: OperatorEdit },
        ],
      },
    },
  ],
};
export default setting;
