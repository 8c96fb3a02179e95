export * from './keyset-pagination';
export * from './offset-pagination';
export * from './page-url';
export * from './paginate';
export * from './paginator';
export * from './typeorm-pagination';
