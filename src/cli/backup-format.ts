/**
 * The PostgreSQL backup file (docs/operations.md, "Backups"): gzip-compressed JSON lines, header, tables and a
 * hashed trailer, checked whole before a restore. The layout and why rows stay text: docs/cli.md, "The
 * PostgreSQL backup file".
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';
import type { AppliedMigration } from '../server/db/migrate.ts';

export const FORMAT = 'mahjong-postgres-backup';
export const FORMAT_VERSION = 1;

export interface BackupHeader {
  readonly format: typeof FORMAT;
  readonly version: number; // FORMAT_VERSION
  readonly createdAt: number; // ms epoch, the database's clock at the snapshot
  readonly server: string; // PostgreSQL's version() at the snapshot
  readonly migrations: readonly AppliedMigration[]; // schema_migrations at the snapshot, in order
  readonly tables: readonly { readonly name: string; readonly rows: number }[]; // in load order
}

interface Trailer {
  readonly lines: number;
  readonly sha256: string;
}

/** The line that starts a table's rows. */
export const tableLine = (name: string): string => JSON.stringify(['table', name]);

/** The file is not a whole, unchanged backup (the message says how). */
export class DamagedBackup extends Error {}

/** Writes lines through gzip, hashing them; `finish` writes the trailer. */
export class BackupWriter {
  private readonly gzip: Gzip = createGzip({ level: 6 });
  private readonly file: WriteStream;
  private readonly hash = createHash('sha256');
  private lines = 0;
  private readonly closed: Promise<void>;

  constructor(path: string) {
    this.file = createWriteStream(path, { flags: 'w', mode: 0o600 });
    this.gzip.pipe(this.file);
    this.closed = new Promise((resolve, reject) => {
      this.file.on('close', resolve);
      this.file.on('error', reject);
      this.gzip.on('error', reject);
    });
    this.closed.catch(() => {}); // awaited in finish(); never unhandled meanwhile
  }

  /** Writes one line, waiting when the stream is full. */
  async line(text: string): Promise<void> {
    const line = `${text}\n`;
    this.hash.update(line);
    this.lines++;
    if (!this.gzip.write(line)) await new Promise<void>((resolve) => this.gzip.once('drain', resolve));
  }

  /** Writes the trailer and closes the file; returns the hash. */
  async finish(): Promise<string> {
    const sha256 = this.hash.digest('hex');
    const trailer: Trailer = { lines: this.lines, sha256 };
    this.gzip.end(`${JSON.stringify(['end', trailer])}\n`);
    await this.closed;
    return sha256;
  }

  abort(): void {
    this.gzip.destroy();
    this.file.destroy();
  }
}

/** Whether a file starts like a gzip stream. */
export const isGzip = (head: Buffer): boolean => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;

/** A backup's lines, decompressed; a gzip error is DamagedBackup. */
async function* linesOf(path: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const input = createReadStream(path).pipe(gunzip);
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) yield line;
  } catch (error) {
    throw new DamagedBackup(`it is damaged (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  } finally {
    input.destroy();
  }
}

const parseLine = (line: string, what: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // below
  }
  throw new DamagedBackup(`${what} is not a JSON object`);
};

function parseMarker(line: string): { kind: 'table'; name: string } | { kind: 'end'; trailer: Trailer } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new DamagedBackup('a marker line is not JSON');
  }
  if (Array.isArray(value) && value.length === 2) {
    const [kind, detail] = value as [unknown, unknown];
    if (kind === 'table' && typeof detail === 'string') return { kind, name: detail };
    const trailer = detail as Partial<Trailer> | null;
    if (kind === 'end' && typeof trailer?.sha256 === 'string' && Number.isInteger(trailer.lines))
      return { kind, trailer: trailer as Trailer };
  }
  throw new DamagedBackup('a marker line is malformed');
}

/** The header, checked for its shape. */
function parseHeader(line: string | undefined): BackupHeader {
  if (line === undefined) throw new DamagedBackup('it is empty');
  const header = parseLine(line, 'its first line');
  if (header.format !== FORMAT) throw new DamagedBackup(`it is not a ${FORMAT} file`);
  if (!Number.isInteger(header.version)) throw new DamagedBackup('its header is malformed');
  if (header.version !== FORMAT_VERSION)
    throw new DamagedBackup(
      `it is version ${String(header.version)} of the format; this program reads ${FORMAT_VERSION}`,
    );
  const migrations = header.migrations;
  const tables = header.tables;
  if (
    typeof header.createdAt !== 'number' ||
    typeof header.server !== 'string' ||
    !Array.isArray(migrations) ||
    !migrations.every(
      (m: { version?: unknown; name?: unknown; checksum?: unknown }) =>
        Number.isInteger(m.version) && typeof m.name === 'string' && typeof m.checksum === 'string',
    ) ||
    !Array.isArray(tables) ||
    !tables.every(
      (t: { name?: unknown; rows?: unknown }) =>
        typeof t.name === 'string' && /^[a-z_][a-z0-9_]{0,62}$/.test(t.name) && Number.isInteger(t.rows),
    )
  )
    throw new DamagedBackup('its header is malformed');
  return header as unknown as BackupHeader;
}

/** Reads and checks the whole file (header, row counts, line count, hash, nothing after); returns the header. */
export async function verifyBackup(path: string): Promise<BackupHeader> {
  const hash = createHash('sha256');
  let header: BackupHeader | undefined;
  let trailer: Trailer | undefined;
  let lines = 0;
  let table = -1; // into header.tables
  const counts: number[] = [];
  for await (const line of linesOf(path)) {
    if (trailer) throw new DamagedBackup('it goes on after its end');
    if (header === undefined) {
      header = parseHeader(line);
    } else if (line.startsWith('[')) {
      const marker = parseMarker(line);
      if (marker.kind === 'end') {
        trailer = marker.trailer;
        continue;
      }
      table++;
      if (header.tables[table]?.name !== marker.name)
        throw new DamagedBackup(`table ${JSON.stringify(marker.name)} is not the one its header lists next`);
      counts[table] = 0;
    } else if (line.startsWith('{')) {
      if (table < 0) throw new DamagedBackup('it has rows before its first table');
      counts[table]!++;
    } else throw new DamagedBackup(`line ${lines + 1} is neither a row nor a marker`);
    hash.update(`${line}\n`);
    lines++;
  }
  if (header === undefined) throw new DamagedBackup('it is empty');
  if (!trailer) throw new DamagedBackup('it is cut short (no end line)');
  if (trailer.lines !== lines) throw new DamagedBackup(`it has ${lines} lines where its end says ${trailer.lines}`);
  if (trailer.sha256 !== hash.digest('hex')) throw new DamagedBackup('its content does not match its checksum');
  header.tables.forEach(({ name, rows }, i) => {
    if ((counts[i] ?? -1) !== rows)
      throw new DamagedBackup(`table ${name} has ${counts[i] ?? 'no'} rows where its header says ${rows}`);
  });
  return header;
}

export interface TableRows {
  readonly table: string;
  readonly batches: AsyncIterable<readonly string[]>;
}

/** A verified backup's tables in file order, rows batched by `maxRows` or `maxBytes`; read each before the next. */
export async function* tablesOf(path: string, maxRows = 1000, maxBytes = 4 << 20): AsyncGenerator<TableRows> {
  const lines = linesOf(path)[Symbol.asyncIterator]();
  await lines.next(); // the header
  let next = await lines.next();
  const isRow = (): boolean => !next.done && next.value.startsWith('{');
  while (!next.done && next.value.startsWith('[')) {
    const marker = parseMarker(next.value);
    if (marker.kind === 'end') break;
    next = await lines.next();
    async function* batches(): AsyncGenerator<readonly string[]> {
      let batch: string[] = [];
      let bytes = 0;
      while (isRow()) {
        const line = (next as IteratorYieldResult<string>).value;
        batch.push(line);
        bytes += line.length;
        if (batch.length >= maxRows || bytes >= maxBytes) {
          yield batch;
          batch = [];
          bytes = 0;
        }
        next = await lines.next();
      }
      if (batch.length > 0) yield batch;
    }
    yield { table: marker.name, batches: batches() };
  }
  await lines.return?.(undefined);
}
