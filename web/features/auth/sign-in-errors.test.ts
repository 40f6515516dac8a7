import { describe, expect, it } from 'vitest';
import { signInErrorMessage } from './sign-in-errors.ts';

describe('sign-in error messages (spec 01 section 8)', () => {
  it('maps the error text to the four messages', () => {
    expect(signInErrorMessage('401: {"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}')).toBe(
      'Email or password is incorrect. Please try again.',
    );
    expect(signInErrorMessage('400: {"message":"Email is required"}')).toBe(
      'Both email and password are required.',
    );
    expect(signInErrorMessage('Unable to reach the server')).toBe(
      'Unable to connect to the server. Please try again later.',
    );
    expect(signInErrorMessage('403: {"message":"This account is deactivated."}')).toBe(
      'Please check your email and password and try again.',
    );
  });

  it('says a deactivated account is deactivated (the server answers so only after the right password)', () => {
    expect(
      signInErrorMessage(
        '403: {"message":"This account is deactivated. Contact your administrator.","code":"ACCOUNT_DISABLED"}',
      ),
    ).toBe('This account is deactivated. Contact your administrator.');
  });

  it("does not blame the password when the server refuses the page's address (PUBLIC_ORIGIN)", () => {
    expect(signInErrorMessage('403: {"message":"Cross-origin request refused","code":"BAD_ORIGIN"}')).toBe(
      'This server does not accept sign-ins from this address. Open SiteCommand at the address your administrator gave you.',
    );
  });

  it('checks in the spec order: invalid credentials before required before server', () => {
    expect(signInErrorMessage('Invalid credentials required server')).toBe(
      'Email or password is incorrect. Please try again.',
    );
    expect(signInErrorMessage('required by the server')).toBe('Both email and password are required.');
  });
});
