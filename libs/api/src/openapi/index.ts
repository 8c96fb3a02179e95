export * from './openapi-document';
export * from './openapi.routes';
export * from './route-recorder';
