import { SnippetFileEntity } from './snippet-file.entity';
import { SnippetEntity } from './snippet.entity';

export { SnippetEntity, SnippetFileEntity };

/** The entities of the snippets library, listed in the data source's `ENTITIES`. */
export const SNIPPETS_ENTITIES = [SnippetEntity, SnippetFileEntity];
