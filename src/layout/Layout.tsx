import { Box, Typography, useMediaQuery } from '@mui/material';
import { type ReactNode, useEffect } from 'react';
import { CheckForApplicationUpdate, Layout as RaLayout, useSidebarState, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { layoutFlags, MOBILE_QUERY, SIDER_BREAKPOINT } from '../settings/layout';
import { updateSettings, useSettings } from '../settings/store';
import { AppBar } from './AppBar';
import { ClientBridge } from './ClientBridge';
import { ConfirmLogoutDialog } from './ConfirmLogoutDialog';
import { Menu } from './Menu';
import { FetchProgress, RouteSuspense } from './ProgressBar';
import { SettingsDrawer } from './SettingsDrawer';
import { TOP_BAR_VAR } from './topBar';
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
  const narrow = useMediaQuery(SIDER_BREAKPOINT);
  const mobile = useMediaQuery(MOBILE_QUERY);
  const flags = layoutFlags(settings, narrow);
  const [open, setOpen] = useSidebarState();
  const location = useLocation();
  useEffect(() => setOpen(flags.menuOpen), [flags.menuOpen, setOpen]);
  // The device follows the screen when it crosses the breakpoint; the drawer may still override it meanwhile.
  useEffect(() => {
    updateSettings({ device: mobile ? 'mobile' : 'desktop' });
  }, [mobile]);
  return (
    <RaLayout
      appBar={flags.navbar ? AppBar : NoAppBar}
      menu={Menu}
      sidebar={flags.menu ? undefined : NoSidebar}
      sx={{
        // react-admin sizes the layout to fit its content (min-width: fit-content), so one wide table or unbroken
        // title made the whole page scroll sideways and the fixed top bar stop short. The page keeps the window's
        // width; what is wide scrolls inside its own container (listParts' Datagrid, ReportList's table).
        minWidth: 0,
        [TOP_BAR_VAR]: flags.navbar ? '60px' : '0px',
        '& .RaLayout-content': { minWidth: 0 },
        '& .RaLayout-appFrame': { mt: flags.navbar ? '60px' : 0 },
        // below the top bar and no taller than the window under it (react-admin's 100vh - 3em hid the menu's end;
        // the class twice: its own rule is as specific and comes later)
        '& .RaSidebar-fixed.RaSidebar-fixed': {
          top: flags.navbar ? 60 : 0,
          height: flags.navbar ? 'calc(100vh - 60px)' : '100vh',
        },
      }}
      data-menu-open={open ? 'true' : 'false'}
    >
      <FetchProgress />
      <ClientBridge />
      <ConfirmLogoutDialog />
      <SettingsDrawer />
      {/* data-location: the path whose screen is shown (router transitions keep the old one while the new one's
          code loads); the end-to-end suite waits on it after a navigation. */}
      <Box component="section" sx={{ flex: 1 }} data-location={location.pathname + location.search}>
        <RouteSuspense>{children}</RouteSuspense>
      </Box>
      {flags.footer && <Footer />}
      <CheckForApplicationUpdate />
    </RaLayout>
  );
}
