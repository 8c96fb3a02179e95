import { Module } from '@nestjs/common';
import { NamespacesModule } from '@app/namespaces';
import { AlertLiveChannel } from './alert-live.channel';
import { AlertLiveConsumer } from './alert-live.consumer';
import { AlertLiveHub } from './alert-live.hub';
import { AlertStreamController } from './alert-stream.controller';

/**
 * Live alert changes for the web console (gateway only): the Kafka → Redis relay and the SSE
 * endpoint. Needs the global ConfigModule, MessagingModule and RedisModule.
 */
@Module({
  imports: [NamespacesModule],
  controllers: [AlertStreamController],
  providers: [AlertLiveChannel, AlertLiveHub, AlertLiveConsumer],
  exports: [AlertLiveHub, AlertLiveConsumer],
})
export class AlertLiveModule {}
