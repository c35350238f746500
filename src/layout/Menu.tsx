import { Box, List, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Tooltip } from '@mui/material';
import { useSidebarState, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { useUser } from '../api/session';
import { sections } from '../resources';
import { flattenRoutes, matchRoute, menuFor } from '../routes/table';
import { COLLAPSED_MENU_WIDTH, MENU_INDENT, useSettings } from '../settings/store';

const routes = flattenRoutes(sections);

/** The left menu, derived from the section declarations and filtered by the operator's permissions. */
export function Menu() {
  const translate = useTranslate();
  const user = useUser();
  const [open] = useSidebarState();
  const { menuWidth } = useSettings();
  const { pathname } = useLocation();
  const active = matchRoute(routes, pathname)?.activeMenu;
  return (
    <Box
      component="nav"
      aria-label={translate('shell.brand')}
      sx={{ width: open ? menuWidth : COLLAPSED_MENU_WIDTH, pt: 1, transition: 'width 195ms' }}
    >
      {menuFor(sections, user?.permissions).map((section) => {
        const SectionIcon = section.icon;
        return (
          <List
            key={section.path}
            component="div"
            dense
            subheader={
              open ? (
                <ListSubheader
                  component="div"
                  sx={{
                    // A group's header stays at the top while its items scroll under it: it is opaque (the
                    // sidebar's own background) and above them, or the items showed through it.
                    bgcolor: 'background.default',
                    zIndex: 2,
                    lineHeight: '36px',
                    display: 'flex',
                    alignItems: 'center',
                    gap: 1,
                  }}
                >
                  <SectionIcon fontSize="small" aria-hidden />
                  {translate(section.locale)}
                </ListSubheader>
              ) : undefined
            }
          >
            {section.items.map((item) => {
              const Icon = item.icon ?? section.icon;
              const label = translate(item.locale);
              const button = (
                <ListItemButton
                  key={item.path}
                  component={Link}
                  to={item.path}
                  selected={active === item.path}
                  aria-current={active === item.path ? 'page' : undefined}
                  sx={{ pl: open ? `${MENU_INDENT}px` : 1.5 }}
                  aria-label={open ? undefined : label}
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <Icon fontSize="small" aria-hidden />
                  </ListItemIcon>
                  {open && <ListItemText primary={label} />}
                </ListItemButton>
              );
              return open ? (
                <div key={item.path}>{button}</div>
              ) : (
                <Tooltip key={item.path} title={label} placement="right">
                  {button}
                </Tooltip>
              );
            })}
          </List>
        );
      })}
    </Box>
  );
}
