export * from './entities';
export * from './snippet-access';
export * from './snippets.events';
export * from './snippets.module';
export * from './snippets.service';
export * from './snippets.repository';
