// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { AdminContext, testDataProvider } from 'react-admin';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { afterEach, expect, test, vi } from 'vitest';
import { ClientBridge } from '../../src/layout/ClientBridge';
import { envelope, stubFetch } from './api-fetch-stub';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Go({ to }: { to: string }) {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(to)}>
      {to}
    </button>
  );
}

test('the system settings are loaded once, not again on every screen the operator opens', async () => {
  const seen = stubFetch(envelope({ imgdomain: '', platforms: [], version: 1 }));
  render(
    <MemoryRouter initialEntries={['/movies']}>
      <AdminContext dataProvider={testDataProvider()}>
        <ClientBridge />
        <Routes>
          <Route path="/movies" element={<Go to="/comments" />} />
          <Route path="/comments" element={<Go to="/movies" />} />
        </Routes>
      </AdminContext>
    </MemoryRouter>,
  );
  for (let i = 0; i < 3; i++) {
    await act(async () => screen.getByRole('button').click());
  }
  await act(async () => {});
  expect(seen.map((r) => r.url.split('?')[0])).toEqual(['/app/admin/sys/getSetting']);
});
