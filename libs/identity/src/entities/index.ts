export * from './access-token.entity';
export * from './oauth-token.entity';
export * from './user.entity';
