import DarkModeIcon from '@mui/icons-material/DarkMode';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import LightModeIcon from '@mui/icons-material/LightMode';
import MenuIcon from '@mui/icons-material/Menu';
import TuneIcon from '@mui/icons-material/Tune';
import { Box, IconButton, AppBar as MuiAppBar, Toolbar, Tooltip, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { RefreshIconButton, useSidebarState, useTranslate } from 'react-admin';
import { NAVBAR_HEIGHT, updateSettings, useSettings } from '../settings/store';
import { Breadcrumbs } from './Breadcrumbs';
import { LocaleSwitch } from './LocaleSwitch';
import { UserMenu } from './UserMenu';
import { usePageMeta } from './usePageMeta';

function useFullscreen(): [boolean, () => void] {
  const [on, setOn] = useState(!!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else document.documentElement.requestFullscreen?.().catch(() => {});
  };
  return [on, toggle];
}

/** The top bar (60px): menu toggle, brand, breadcrumbs, then language, theme, full screen, settings, avatar. */
export function AppBar() {
  const { meta, parent } = usePageMeta();
  const translate = useTranslate();
  const settings = useSettings();
  const [open, setOpen] = useSidebarState();
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const dark = settings.theme === 'dark';
  const tool = (label: string, onClick: () => void, icon: React.ReactNode) => (
    <Tooltip title={label}>
      <IconButton color="inherit" onClick={onClick} aria-label={label}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <MuiAppBar
      position="fixed"
      color="default"
      elevation={1}
      sx={{ height: NAVBAR_HEIGHT, bgcolor: 'background.paper', zIndex: (t) => t.zIndex.drawer + 1 }}
    >
      <Toolbar sx={{ minHeight: `${NAVBAR_HEIGHT}px !important`, gap: 1 }}>
        {tool(
          translate('shell.navbar.toggleMenu'),
          () => {
            setOpen(!open);
            updateSettings({ menuCollapse: open });
          },
          <MenuIcon />,
        )}
        <Typography component="span" variant="h6" sx={{ fontWeight: 600, mr: 2, whiteSpace: 'nowrap' }}>
          {translate('shell.brand')}
        </Typography>
        <Box sx={{ flex: 1, minWidth: 0, display: { xs: 'none', md: 'block' } }}>
          <Breadcrumbs meta={meta} parent={parent} />
        </Box>
        <RefreshIconButton />
        <LocaleSwitch />
        {tool(
          translate(dark ? 'shell.navbar.toLight' : 'shell.navbar.toDark'),
          () => updateSettings({ theme: dark ? 'light' : 'dark' }),
          dark ? <LightModeIcon /> : <DarkModeIcon />,
        )}
        {tool(
          translate(fullscreen ? 'shell.navbar.exitFullscreen' : 'shell.navbar.fullscreen'),
          toggleFullscreen,
          fullscreen ? <FullscreenExitIcon /> : <FullscreenIcon />,
        )}
        {tool(
          translate('shell.navbar.settings'),
          () => updateSettings({ globalSettings: true }),
          <TuneIcon />,
        )}
        <UserMenu />
      </Toolbar>
    </MuiAppBar>
  );
}
