import { Box, Typography } from '@mui/material';
import { type ReactNode, Suspense, useEffect } from 'react';
import {
  CheckForApplicationUpdate,
  Loading,
  Layout as RaLayout,
  useSidebarState,
  useTranslate,
} from 'react-admin';
import { useSettings } from '../settings/store';
import { AppBar } from './AppBar';
import { ClientBridge } from './ClientBridge';
import { ConfirmLogoutDialog } from './ConfirmLogoutDialog';
import { Menu } from './Menu';
import { SettingsDrawer } from './SettingsDrawer';
import { usePageTitle } from './usePageMeta';

function Footer() {
  const translate = useTranslate();
  return (
    <Box component="footer" sx={{ textAlign: 'center', py: 2, color: 'text.secondary' }}>
      <Typography variant="body2">{translate('shell.footer')}</Typography>
    </Box>
  );
}

const NoSidebar = () => null;
const NoAppBar = () => null;

/** The admin layout: react-admin's, with our top bar, menu, footer, settings drawer and the client's dialogs. */
export function Layout({ children }: { children: ReactNode }) {
  const settings = useSettings();
  usePageTitle();
  const [open, setOpen] = useSidebarState();
  const collapsed = settings.menuCollapse && !settings.topMenu;
  useEffect(() => setOpen(!collapsed), [collapsed, setOpen]);
  return (
    <RaLayout
      appBar={settings.navbar ? AppBar : NoAppBar}
      menu={Menu}
      sidebar={settings.menu ? undefined : NoSidebar}
      sx={{
        '& .RaLayout-appFrame': { mt: settings.navbar ? '60px' : 0 },
        '& .RaSidebar-fixed': { top: settings.navbar ? 60 : 0 },
      }}
      data-menu-open={open ? 'true' : 'false'}
    >
      <ClientBridge />
      <ConfirmLogoutDialog />
      <SettingsDrawer />
      <Box component="section" sx={{ flex: 1 }}>
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </Box>
      {settings.footer && <Footer />}
      <CheckForApplicationUpdate />
    </RaLayout>
  );
}
