export { SNIPPETS_ENTITIES } from './entities';
export { SnippetsModule } from './snippets.module';
export { SnippetsService } from './snippets.service';
export { SnippetsRepository } from './snippets.repository';
export { SnippetFileEntity } from './entities/snippet-file.entity';
export { SnippetEntity } from './entities/snippet.entity';
