import type { AppSettings } from './store';

/** Below this width the left menu starts collapsed (SPEC.md §9: sider breakpoint xl). */
export const SIDER_BREAKPOINT = '(max-width: 1199.95px)';
/** Below this width the device is 'mobile'. */
export const MOBILE_QUERY = '(max-width: 767.95px)';

/** What the layout shows for the given settings (SPEC.md §3–4): the effects of the drawer's switches. */
export function layoutFlags(s: AppSettings, narrow = false) {
  const collapsed = s.menuCollapse || s.device === 'mobile' || narrow;
  return {
    navbar: s.navbar,
    menu: s.menu,
    footer: s.footer,
    tabBar: s.tabBar,
    /** topMenu expands a collapsed menu; menuCollapse (or a small screen) collapses it. */
    menuOpen: s.topMenu || !collapsed,
    /** Without the navbar (and its settings button) a floating button opens the drawer. */
    floatingSettings: !s.navbar,
  };
}
