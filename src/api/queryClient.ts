import { QueryClient } from '@tanstack/react-query';

/**
 * The admin's react-query client, given to react-admin (App.tsx) rather than made by it, so that code outside the
 * React tree can fill its cache ahead of a screen (a report screen's calendar, asked with the screen's code).
 */
export const queryClient = new QueryClient();
