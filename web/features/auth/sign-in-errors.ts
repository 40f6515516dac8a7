export const SIGN_IN_ERROR_TITLE = 'Unable to Sign In';

/** Spec 01 section 8: the sign-in toast's message, chosen by the error text. */
export function signInErrorMessage(errorText: string): string {
  // Not the user's email or password: the server is set up for another address (PUBLIC_ORIGIN).
  if (errorText.includes('BAD_ORIGIN'))
    return 'This server does not accept sign-ins from this address. Open SiteCommand at the address your administrator gave you.';
  // Only said after the right password: the server's own words (the catch-all below blamed the password).
  if (errorText.includes('ACCOUNT_DISABLED'))
    return 'This account is deactivated. Contact your administrator.';
  if (errorText.includes('Invalid credentials')) return 'Email or password is incorrect. Please try again.';
  if (errorText.includes('required')) return 'Both email and password are required.';
  if (errorText.includes('server')) return 'Unable to connect to the server. Please try again later.';
  return 'Please check your email and password and try again.';
}
