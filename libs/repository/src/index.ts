export * from './entities';
export * from './git/git-cli';
export * from './git/git-repository';
export * from './git-http/git-http-routes';
export * from './repository.events';
export * from './push/push-recorder';
export * from './repository-storage';
export * from './repository.module';
