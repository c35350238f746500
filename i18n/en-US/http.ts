/** Messages of the HTTP client and session (src/api/), en-US. Read by src/api/messages.ts and under `http.*`. */
const http = {
  /** The toast of a failed answer that carries no message (SPEC.md §8). */
  error: 'Error',
  /** The toast of a transport failure that carries no message. */
  network: 'Network error',
  /** The toast of code 50300: the database is restarting or down for a moment. */
  unavailable: 'Database unavailable, please retry',
  /** The fallback toast of a failed system configuration request (SPEC.md §8). */
  systemConfigFailed: 'System configuration request failed',
  /** The dialog for codes 50008, 50012 and 50014 (SPEC.md §8). */
  confirmLogout: {
    title: 'Confirm logout',
    content: 'You have been logged out. You can cancel to stay on this page, or log in again.',
    relogin: 'Re-Login',
    cancel: 'Cancel',
  },
};
export default http;
