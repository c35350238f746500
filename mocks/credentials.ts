/** The demo's login, shown on its login page. The demo runs in the visitor's own browser, so this is no secret. */
export const DEMO_CREDENTIALS = { username: 'admin', password: 'demo1234' } as const;
