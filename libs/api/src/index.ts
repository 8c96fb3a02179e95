export * from './auth';
export * from './dto';
export * from './errors';
export * from './http';
export * from './pagination';
export * from './params';
export * from './openapi';
