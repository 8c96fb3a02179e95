// libs/snippets: folders import only the folders below them, from the top down:
//   use-cases/ -> core/ (access rules, file lists, events, SnippetsRepository) -> dto/, entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs snippets`.
export { SNIPPETS_ENTITIES } from './entities';
export { SnippetsModule } from './snippets.module';
export { SnippetsService } from './snippets.service';
export { SnippetsRepository } from './core/snippets.repository';
export { SnippetFileEntity } from './entities/snippet-file.entity';
export { SnippetEntity } from './entities/snippet.entity';
