// Component tests wait for what a user would see (findBy*, waitFor). Testing Library gives up after 1 s by
// default, which a 2-core CI machine running several suites at once can exceed for a correct screen; the
// waits still end the moment the text appears, so a longer ceiling costs a passing test nothing.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}

export {};
