import type { DomainEventConsumerOptions } from '@app/messaging';
import { SystemNotesWriter } from './system-notes.writer';

describe(SystemNotesWriter.name, () => {
  it('receives the events that write or remove notes, and only those', () => {
    const sut = new SystemNotesWriter(null as never) as unknown as { consumerOptions(): DomainEventConsumerOptions };
    expect(Object.keys(sut.consumerOptions().handlers ?? {}).sort()).toEqual(
      ['epic.destroyed', 'issue.destroyed', 'issue.updated', 'merge_request.updated', 'push', 'snippet.destroyed'].sort(),
    );
  });
});
