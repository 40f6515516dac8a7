export * from './identity.ts';
export * from './field.ts';
export * from './office.ts';
export * from './sync.ts';
