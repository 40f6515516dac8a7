/**
 * The demo seed's entry point, kept for its callers (server, tests, benches): the code lives in
 * ./seed/ (index.ts orchestrates, demo-data/ holds the tenants, images.ts draws the photos, write.ts writes
 * through the mutators).
 */
export { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo, seedRbac, type DemoAccount } from './seed/index.ts';
