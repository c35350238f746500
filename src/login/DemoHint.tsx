import { DEMO_CREDENTIALS } from '../../mocks/credentials';

/** Demo mode only: the demo's login, shown on the login page. */
export function DemoHint({ text }: { text: string }) {
  return (
    <p className="zg-login__demo">
      {text.replace('{username}', DEMO_CREDENTIALS.username).replace('{password}', DEMO_CREDENTIALS.password)}
    </p>
  );
}
