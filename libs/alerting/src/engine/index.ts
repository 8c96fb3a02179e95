export * from './alert-payload-parser';
export * from './alert-severity';
export * from './attribute-mapping';
export * from './canonical-json';
export * from './fingerprint';
export * from './normalize-alert';
export * from './prometheus-payload';
