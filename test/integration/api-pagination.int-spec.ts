import 'reflect-metadata';
import { Controller, Get, Inject, Module, Query, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AppConfig, ConfigModule } from '@app/config';
import { configureHttpApp, createFastifyAdapter, Paginator, PROJECT_LIST_MAX_OFFSET } from '@app/api';
import { createTestDatabase } from '@app/testing';

/* Fixtures: in-memory lists and a real PostgreSQL table, paginated by the helpers under test. */

const EXTERNAL_URL = 'https://gitlab.example.com/root';

interface Item {
  id: number;
  name: string;
}

const itemsOf = (count: number): Item[] =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `item-${String((index * 7) % count).padStart(5, '0')}` }));

const ITEMS = itemsOf(45);
const MANY_ITEMS = itemsOf(10_050);
const PROJECTS = itemsOf(PROJECT_LIST_MAX_OFFSET + 100);

@Entity('api_pagination_rows')
class PaginationRowEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  color: string;
}

const DATA_SOURCE = Symbol('DATA_SOURCE');

@Controller('items')
class ItemsController {
  constructor(private readonly paginator: Paginator) {}

  @Get()
  list(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Item[] {
    return this.paginator.array(ITEMS, request, reply);
  }

  @Get('many')
  many(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Item[] {
    return this.paginator.array(MANY_ITEMS, request, reply);
  }

  @Get('projects')
  projects(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Item[] {
    return this.paginator.array(PROJECTS, request, reply, { maxOffset: PROJECT_LIST_MAX_OFFSET, resourceType: 'Project' });
  }

  @Get('keyset')
  keyset(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Item[] {
    return this.paginator.keysetArray(ITEMS, request, reply, {
      keyset: { allowedOrderBy: ['id', 'name'], defaultOrderBy: 'id' },
      accessors: { id: (item) => item.id, orderValues: { name: (item) => item.name } },
    });
  }
}

@Controller('rows')
class RowsController {
  constructor(
    private readonly paginator: Paginator,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  @Get()
  list(
    @Query('color') color: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PaginationRowEntity[]> {
    const qb = this.dataSource.getRepository(PaginationRowEntity).createQueryBuilder('row');
    if (color) qb.where('row.color = :color', { color });
    return this.paginator.offset(qb, request, reply);
  }

  @Get('keyset')
  keyset(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<PaginationRowEntity[]> {
    const qb = this.dataSource.getRepository(PaginationRowEntity).createQueryBuilder('row').where('row.color = :color', { color: 'red' });
    return this.paginator.keyset(qb, request, reply, {
      keyset: { allowedOrderBy: ['id', 'name'], defaultOrderBy: 'id' },
      columns: {
        idExpression: 'row.id',
        orderExpressions: { name: 'row.name' },
        id: (row) => row.id,
        orderValues: { name: (row) => row.name },
      },
    });
  }
}

type Page<T> = { status: number; items: T[]; headers: Headers };

/** Parses `Link` into `{rel: url}`. */
function links(headers: Headers): Record<string, string> {
  const value = headers.get('link');
  if (!value) return {};
  return Object.fromEntries(
    value.split(', ').map((entry) => {
      const match = /^<([^>]+)>; rel="([a-z]+)"$/.exec(entry);
      if (!match) throw new Error(`malformed Link entry: ${entry}`);
      return [match[2], match[1]];
    }),
  );
}

describe('pagination over HTTP', () => {
  let app: NestFastifyApplication;
  let base: string;
  let dataSource: DataSource;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase('api_pagination');
    dropDatabase = database.drop;
    dataSource = await new DataSource({ type: 'postgres', url: database.url, entities: [PaginationRowEntity], synchronize: false }).initialize();
    await dataSource.query('CREATE TABLE api_pagination_rows (id serial PRIMARY KEY, name text NOT NULL, color text NOT NULL)');
    // 10,050 rows: 10,030 red (over the count cap), 20 blue; names repeat to exercise the id tie breaker.
    await dataSource.query(
      `INSERT INTO api_pagination_rows (name, color)
       SELECT 'n' || lpad(((i * 37) % 500)::text, 3, '0'), CASE WHEN i % 500 = 0 AND i <= 10000 THEN 'blue' ELSE 'red' END
       FROM generate_series(1, 10050) AS i`,
    );

    const config = AppConfig.fromEnvironment({ EXTERNAL_URL: EXTERNAL_URL, DATABASE_URL: database.url });
    @Module({
      imports: [ConfigModule.forRoot(config)],
      controllers: [ItemsController, RowsController],
      providers: [Paginator, { provide: DATA_SOURCE, useValue: dataSource }],
    })
    class PaginationFixtureModule {}

    app = await NestFactory.create<NestFastifyApplication>(PaginationFixtureModule, createFastifyAdapter(config), { logger: false });
    configureHttpApp(app, config);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await dataSource?.destroy();
    await dropDatabase?.();
  });

  const get = async <T = Item>(pathOrUrl: string): Promise<Page<T>> => {
    // Links carry the external URL: they are followed against the test server, path and query kept.
    const url = pathOrUrl.startsWith(EXTERNAL_URL) ? `${base}${pathOrUrl.slice(EXTERNAL_URL.length)}` : `${base}${pathOrUrl}`;
    const res = await fetch(url);
    const body = (await res.json()) as T[];
    return { status: res.status, items: body, headers: res.headers };
  };
  const external = (path: string): string => `${EXTERNAL_URL}${path}`;

  describe('offset pagination', () => {
    it('sets x-* headers and a Link with prev, next, first and last as complete URLs keeping every query parameter', async () => {
      const page = await get('/api/v4/items?scope=all&labels[]=a&labels[]=b&page=2&per_page=10&search=x+y');
      expect(page.status).toBe(200);
      expect(page.items.map((item) => item.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      expect(page.headers.get('x-page')).toBe('2');
      expect(page.headers.get('x-per-page')).toBe('10');
      expect(page.headers.get('x-next-page')).toBe('3');
      expect(page.headers.get('x-prev-page')).toBe('1');
      expect(page.headers.get('x-total')).toBe('45');
      expect(page.headers.get('x-total-pages')).toBe('5');
      const kept = '/api/v4/items?scope=all&labels[]=a&labels[]=b&search=x+y';
      expect(page.headers.get('link')).toBe(
        [
          `<${external(`${kept}&page=1&per_page=10`)}>; rel="prev"`,
          `<${external(`${kept}&page=3&per_page=10`)}>; rel="next"`,
          `<${external(`${kept}&page=1&per_page=10`)}>; rel="first"`,
          `<${external(`${kept}&page=5&per_page=10`)}>; rel="last"`,
        ].join(', '),
      );
    });

    it('defaults to page 1 and 20 per page, with an empty x-prev-page and no prev link', async () => {
      const page = await get('/api/v4/items');
      expect(page.items).toHaveLength(20);
      expect(page.headers.get('x-page')).toBe('1');
      expect(page.headers.get('x-per-page')).toBe('20');
      expect(page.headers.get('x-prev-page')).toBe('');
      expect(page.headers.get('x-next-page')).toBe('2');
      expect(Object.keys(links(page.headers))).toEqual(['next', 'first', 'last']);
      expect(links(page.headers)['last']).toBe(external('/api/v4/items?page=3&per_page=20'));
    });

    it('leaves x-next-page empty and has no next link on the last page', async () => {
      const page = await get('/api/v4/items?page=3');
      expect(page.items.map((item) => item.id)).toEqual([41, 42, 43, 44, 45]);
      expect(page.headers.get('x-next-page')).toBe('');
      expect(Object.keys(links(page.headers))).toEqual(['prev', 'first', 'last']);
    });

    it('clamps per_page to 100 and out-of-range integers as Kaminari, and refuses what is not an integer (400)', async () => {
      const clamped = await get('/api/v4/items?per_page=500');
      expect(clamped.headers.get('x-per-page')).toBe('100');
      expect(clamped.items).toHaveLength(45);
      const outOfRange = await get('/api/v4/items?page=0&per_page=-3');
      expect(outOfRange.headers.get('x-page')).toBe('1');
      expect(outOfRange.headers.get('x-per-page')).toBe('20');
      const invalid = await fetch(`${base}/api/v4/items?page=abc`);
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toEqual({ error: 'page is invalid' });
      const zero = await fetch(`${base}/api/v4/items?per_page=0`);
      expect(zero.status).toBe(400);
      expect(await zero.json()).toEqual({ error: 'per_page has a value not allowed' });
    });

    it('answers a page past the end with an empty array, still with totals', async () => {
      const page = await get('/api/v4/items?page=9');
      expect(page.items).toEqual([]);
      expect(page.headers.get('x-total')).toBe('45');
      expect(page.headers.get('x-prev-page')).toBe('');
    });

    it('reaches every item exactly once by following rel="next"', async () => {
      const seen: number[] = [];
      let next: string | undefined = '/api/v4/items?per_page=7&order=x';
      while (next) {
        const page: Page<Item> = await get(next);
        seen.push(...page.items.map((item) => item.id));
        next = links(page.headers)['next'];
      }
      expect(seen).toEqual(ITEMS.map((item) => item.id));
    });

    it('omits x-total, x-total-pages and rel="last" above 10,000 records', async () => {
      const page = await get('/api/v4/items/many?page=2&per_page=100');
      expect(page.items).toHaveLength(100);
      expect(page.headers.get('x-total')).toBeNull();
      expect(page.headers.get('x-total-pages')).toBeNull();
      expect(page.headers.get('x-next-page')).toBe('3');
      expect(Object.keys(links(page.headers))).toEqual(['prev', 'next', 'first']);
    });

    it('refuses offsets beyond the project list maximum with 405 and GitLab’s message', async () => {
      const refused = await get('/api/v4/items/projects?page=501&per_page=100');
      expect(refused.status).toBe(405);
      expect(refused.items).toEqual({
        message:
          '405 Method Not Allowed - Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.',
      });
      const deepest = await get('/api/v4/items/projects?page=500&per_page=100');
      expect(deepest.status).toBe(200);
      expect(deepest.items[0].id).toBe(49_901);
    });
  });

  describe('keyset pagination', () => {
    it('links only rel="next" with id_after, keeping every other parameter, and ends with an empty page without Link', async () => {
      const first = await get('/api/v4/items/keyset?pagination=keyset&order_by=id&sort=asc&per_page=15&visibility=public');
      expect(first.items.map((item) => item.id)).toEqual(ITEMS.slice(0, 15).map((item) => item.id));
      expect(first.headers.get('link')).toBe(
        `<${external('/api/v4/items/keyset?visibility=public&pagination=keyset&per_page=15&order_by=id&sort=asc&id_after=15')}>; rel="next"`,
      );
      expect(first.headers.get('x-total')).toBeNull();

      const second = await get(links(first.headers)['next']);
      expect(second.items[0].id).toBe(16);
      const third = await get(links(second.headers)['next']);
      expect(third.items.map((item) => item.id)).toEqual(ITEMS.slice(30, 45).map((item) => item.id));
      const end = await get(links(third.headers)['next']);
      expect(end.status).toBe(200);
      expect(end.items).toEqual([]);
      expect(end.headers.get('link')).toBeNull();
    });

    it('has no Link on a page that is not full', async () => {
      const page = await get('/api/v4/items/keyset?pagination=keyset&order_by=id&per_page=20&id_after=40');
      expect(page.items.map((item) => item.id)).toEqual([41, 42, 43, 44, 45]);
      expect(page.headers.get('link')).toBeNull();
    });

    it('uses id_before when sorting descending', async () => {
      const page = await get('/api/v4/items/keyset?pagination=keyset&order_by=id&sort=desc&per_page=5');
      expect(page.items.map((item) => item.id)).toEqual([45, 44, 43, 42, 41]);
      expect(links(page.headers)['next']).toContain('id_before=41');
    });

    it('uses an opaque cursor for other orders and reaches every item once in order', async () => {
      const seen: Item[] = [];
      let next: string | undefined = '/api/v4/items/keyset?pagination=keyset&order_by=name&sort=asc&per_page=10';
      while (next) {
        const page: Page<Item> = await get(next);
        seen.push(...page.items);
        next = links(page.headers)['next'];
        if (next) expect(next).toMatch(/[?&]cursor=[A-Za-z0-9_-]+$/);
      }
      expect(seen.map((item) => item.name)).toEqual([...ITEMS].map((item) => item.name).sort());
    });

    it('answers a tampered cursor with 400', async () => {
      const first = await get('/api/v4/items/keyset?pagination=keyset&order_by=name&per_page=10');
      const next = links(first.headers)['next'];
      const cursor = new URL(next).searchParams.get('cursor') as string;
      const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...decoded, o: 'id' })).toString('base64url');
      for (const bad of [forged, 'not*base64', Buffer.from('[1,2]').toString('base64url')]) {
        const page = await get(`/api/v4/items/keyset?pagination=keyset&order_by=name&per_page=10&cursor=${bad}`);
        expect(page.status).toBe(400);
        expect(page.items).toEqual({ message: '400 Bad request - Invalid cursor parameter' });
      }
    });

    it('refuses an order the listing does not support with 405', async () => {
      const page = await get('/api/v4/items/keyset?pagination=keyset&order_by=created_at');
      expect(page.status).toBe(405);
      expect(page.items).toEqual({ message: '405 Method Not Allowed - Keyset pagination is not yet available for this type of request' });
    });
  });

  describe('TypeORM query builders (PostgreSQL)', () => {
    it('counts and pages a filtered query, with totals under the cap', async () => {
      const page = await get<PaginationRowEntity>('/api/v4/rows?color=blue&per_page=8&page=3');
      expect(page.headers.get('x-total')).toBe('20');
      expect(page.headers.get('x-total-pages')).toBe('3');
      expect(page.headers.get('x-next-page')).toBe('');
      expect(page.items).toHaveLength(4);
      expect(page.items.every((row) => row.color === 'blue')).toBe(true);
      const ids = page.items.map((row) => row.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(links(page.headers)['last']).toBe(external('/api/v4/rows?color=blue&page=3&per_page=8'));
    });

    it('omits the totals above 10,000 rows and still knows whether a next page exists', async () => {
      const middle = await get<PaginationRowEntity>('/api/v4/rows?per_page=100&page=3');
      expect(middle.items.map((row) => row.id)).toEqual(Array.from({ length: 100 }, (_, index) => 201 + index));
      expect(middle.headers.get('x-total')).toBeNull();
      expect(middle.headers.get('x-total-pages')).toBeNull();
      expect(middle.headers.get('x-next-page')).toBe('4');
      expect(links(middle.headers)['last']).toBeUndefined();

      const last = await get<PaginationRowEntity>('/api/v4/rows?per_page=100&page=101');
      expect(last.items).toHaveLength(50);
      expect(last.headers.get('x-next-page')).toBe('');
    });

    it('walks a keyset listing by name with ties broken by id: every red row once, in order', async () => {
      const seen: PaginationRowEntity[] = [];
      let next: string | undefined = '/api/v4/rows/keyset?pagination=keyset&order_by=name&sort=desc&per_page=100';
      let pages = 0;
      while (next) {
        const page: Page<PaginationRowEntity> = await get<PaginationRowEntity>(next);
        expect(page.status).toBe(200);
        seen.push(...page.items);
        next = links(page.headers)['next'];
        pages += 1;
      }
      const expected = (await dataSource.query(`SELECT id, name FROM api_pagination_rows WHERE color = 'red' ORDER BY name DESC, id DESC`)) as Array<{
        id: number;
        name: string;
      }>;
      expect(seen.map((row) => row.id)).toEqual(expected.map((row) => row.id));
      expect(pages).toBe(Math.ceil(expected.length / 100) + (expected.length % 100 === 0 ? 1 : 0));
    });

    it('walks a keyset listing by id with id_after', async () => {
      const first = await get<PaginationRowEntity>('/api/v4/rows/keyset?pagination=keyset&per_page=50');
      expect(links(first.headers)['next']).toMatch(/id_after=\d+$/);
      const second = await get<PaginationRowEntity>(links(first.headers)['next']);
      expect(second.items[0].id).toBeGreaterThan(first.items[first.items.length - 1].id);
      expect(second.items).toHaveLength(50);
    });
  });
});
