import { renderToStaticMarkup } from 'react-dom/server';
import { SignInForm } from './sign-in-form.tsx';

const nothing = () => {};

/**
 * The sign-in card as HTML, for the server to put in a visitor's page at /login (ADR 029; listed in
 * shared/page-bootstrap.ts). Called by the build (vite.config.ts), never by the app: react-dom/server stays out of the browser's code.
 */
export function prepaint(): string {
  return renderToStaticMarkup(
    <SignInForm
      email=""
      password=""
      error={null}
      pending={false}
      onEmailChange={nothing}
      onPasswordChange={nothing}
      onSubmit={nothing}
      onBack={nothing}
      prepaint
    />,
  );
}
