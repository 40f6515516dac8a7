import { ConfigError, loadEnv } from './env.ts';
import { staticApp, startServer } from './serve.ts';

try {
  const running = await startServer(loadEnv(), { staticApp: staticApp() });
  const stop = () => {
    // A request that never finishes must not keep the process alive past a few seconds.
    setTimeout(() => process.exit(1), 5000).unref();
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
